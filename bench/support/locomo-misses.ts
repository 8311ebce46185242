import { type Redactor } from '@app/redaction';

import { type LocomoSet } from './locomo';
import { type Bundle, type MemoryPool } from './memory-metrics';

/** Where a missed evidence turn is, relative to the pool and to the bundle. */
export type MissPlace =
  | 'trimmed' // in a window the bundle chose, cut by the budget
  | 'not_chosen' // in the pool, in no chosen window
  | 'not_in_pool'; // in no pool window at all

/** One row of the breakdown: evidence turns per place, distance and question kind. */
export interface MissReport {
  evidence: number;
  held: number;
  /** `place` → count; `place:kind` → count. */
  places: Record<string, number>;
  /** Distance from the bundle's nearest returned turn, per place. */
  distance: Record<string, number>;
  /** Fusion rank band (0-based, best first) of the best pool window holding a `not_chosen` turn. */
  notChosenRank: Record<string, number>;
}

const band = (rank: number) => (rank < 5 ? '0-4' : rank < 10 ? '5-9' : rank < 15 ? '10-14' : '15+');

/**
 * Tallies, for every evidence turn a bundle missed, whether it was trimmed from a chosen
 * window, sat in the pool unchosen, or never reached the pool, and how many turns it sits
 * from the nearest turn the bundle returned (a neighbour expansion reaches only the near
 * ones). Positions come from the LoCoMo files: a line maps to its session and turn index.
 */
export class MissTally {
  private readonly report: MissReport = {
    evidence: 0,
    held: 0,
    places: {},
    distance: {},
    notChosenRank: {},
  };
  private readonly position = new Map<string, { session: string; turn: number }>();

  constructor(
    set: LocomoSet,
    private readonly redactor: Redactor,
  ) {
    const next = new Map<string, number>();
    for (const m of set.messages) {
      const turn = next.get(m.conversation_uid) ?? 0;
      next.set(m.conversation_uid, turn + 1);
      this.position.set(this.lineOf(m), { session: m.conversation_uid, turn });
    }
  }

  /** The redacted `speaker: text` line the evidence lists hold (as `locomo-eval` writes them). */
  private lineOf(m: { sender: string; text: string }): string {
    return this.redactor.redact(`${m.sender}: ${this.redactor.redact(m.text).text.trim()}`).text;
  }

  add(p: MemoryPool, bundle: Bundle): void {
    const bump = (o: Record<string, number>, k: string) => (o[k] = (o[k] ?? 0) + 1);
    const windows = p.pool.map((w) => this.redactor.redact(w.content).text);
    const returned = bundle.contents
      .flatMap((c) => c.split('\n'))
      .map((l) => this.position.get(l))
      .filter((x) => x !== undefined);
    const order = [...p.pool.keys()].sort((a, b) => p.pool[b].score - p.pool[a].score);
    for (const [line] of p.evidence) {
      this.report.evidence++;
      if (bundle.contents.some((c) => c.includes(line))) {
        this.report.held++;
        continue;
      }
      const holders = windows.flatMap((w, i) => (w.includes(line) ? [i] : []));
      const chosen = holders.some((i) => bundle.ids.includes(p.pool[i].id));
      const place: MissPlace =
        holders.length === 0 ? 'not_in_pool' : chosen ? 'trimmed' : 'not_chosen';
      bump(this.report.places, place);
      bump(this.report.places, `${place}:${p.question.kind}`);
      if (place === 'not_chosen') {
        bump(this.report.notChosenRank, band(Math.min(...holders.map((i) => order.indexOf(i)))));
      }
      const at = this.position.get(line);
      const near = returned.filter((r) => r.session === at?.session);
      const d =
        at && near.length > 0 ? Math.min(...near.map((r) => Math.abs(r.turn - at.turn))) : -1;
      const distance = d < 0 ? 'other_session' : d <= 2 ? String(d) : '3+';
      bump(this.report.distance, `${place}:${distance}`);
    }
  }

  result(): MissReport {
    return this.report;
  }
}
