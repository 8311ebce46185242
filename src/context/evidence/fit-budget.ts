import { termOverlap } from '@app/rerank';

import { coreMask, GAP, renderKept, type TrimOptions, trimTurns } from './trim-turns';
import { splitTurns } from './turns';

/** The token budget the chosen excerpts should fit, and how to count (before redaction). */
export interface EvidenceBudget {
  maxTokens: number;
  count: (text: string) => number;
}

/** What fitting reads and writes of an excerpt. */
export interface FittedExcerpt {
  content: string;
  /** The excerpt's score (its lead window's): who else gets a core before the best grows. */
  score?: number;
  trimmed: boolean;
}

/**
 * Fits excerpts (best first) to the budget by marginal value, when they do not fit whole:
 * 1. the best excerpt's core (the turns matching the query and `radius` neighbours, see
 *    `trimTurns`; the whole excerpt when nothing matches), with the cores of its peers (those
 *    scoring ≥ `peerShare` × its score), grows back toward whole while it fits;
 * 2. every other excerpt's core is admitted in order while it fits what is left, else that
 *    excerpt is left out and the next (smaller) one is tried;
 * 3. the room left grows the admitted excerpts, one ring of neighbour turns at a time across
 *    all of them, best first: the turns next to a match are the likeliest missing evidence.
 * So a lower excerpt never costs a better one its core, and nothing is trimmed to make room
 * for a worse excerpt's outer turns. The best excerpt is always admitted (the budget cuts it
 * if its core is too long); the first one left out after the last admitted is kept whole for
 * the budget to cut into what room is left. Without a budget every long excerpt is trimmed.
 * Returns the indexes left out (measured on LoCoMo: docs/benchmarks.md).
 */
export function fitToBudget<E extends FittedExcerpt>(
  query: string,
  excerpts: E[],
  trim: TrimOptions,
  senders: ReadonlySet<string>,
  budget: EvidenceBudget | undefined,
): number[] {
  const turns = excerpts.map((e) => splitTurns(e.content, senders));
  // Costs from per-turn counts (one tokenizer pass): a turn boundary (newline) or a gap mark
  // is about one token, so a sum is never below the joined text's exact count.
  const turnTokens = budget ? turns.map((list) => list.map((t) => budget.count(t) + 1)) : [];
  const whole = turnTokens.reduce((n, list) => list.reduce((a, b) => a + b, n), 0);
  if (budget && whole - excerpts.length <= budget.maxTokens) {
    return [];
  }
  // One IDF over every chosen turn: a word all of them share says little about which answers.
  const scores = termOverlap(query, turns.flat());
  const offsets = turns.map((_, i) => turns.slice(0, i).reduce((n, t) => n + t.length, 0));
  const scoresOf = (i: number) => scores.slice(offsets[i], offsets[i] + turns[i].length);
  if (!budget) {
    excerpts.forEach((e, i) => {
      const cut = trimTurns(turns[i], scoresOf(i), trim);
      if (cut.trimmed) {
        excerpts[i] = { ...e, content: cut.turns.join('\n'), trimmed: true };
      }
    });
    return [];
  }
  const gapTokens = budget.count(GAP) + 1;
  // A gap mark stands between two kept runs (see `renderKept`), never at an end.
  const cost = (i: number, keep: readonly boolean[]) => {
    let n = 0;
    let seen = false;
    keep.forEach((k, j) => {
      if (k) {
        n += turnTokens[i][j] + (seen && !keep[j - 1] ? gapTokens : 0);
        seen = true;
      }
    });
    return n;
  };
  const masks: Array<boolean[] | undefined> = [];
  const left: number[] = [];
  let used = 0;
  const admit = (from: number, to: number) => {
    for (let i = from; i < Math.min(to, turns.length); i++) {
      const keep = coreMask(turns[i].length, scoresOf(i), trim) ?? turns[i].map(() => true);
      const c = cost(i, keep);
      if (c <= budget.maxTokens - used || i === 0) {
        masks[i] = keep;
        used += c;
      } else {
        left.push(i);
      }
    }
  };
  // Grow ring by ring: each pass adds, per admitted excerpt, the turns next to what it holds.
  const grow = () => {
    for (let grew = true; grew;) {
      grew = false;
      masks.forEach((keep, i) => {
        if (!keep || keep.every(Boolean)) {
          return;
        }
        const next = keep.map((k, j) => k || keep[j - 1] === true || keep[j + 1] === true);
        const delta = cost(i, next) - cost(i, keep);
        if (delta <= budget.maxTokens - used) {
          masks[i] = next;
          used += delta;
          grew = true;
        }
      });
    }
  };
  // The best excerpt grows first (it is the answer more often than any other), except over
  // its peers: excerpts scoring within `peerShare` of it are as likely to hold evidence as
  // its outer turns (a list question's answers sit in several), so they get their cores
  // before any excerpt grows. Then every other one gets its core before any gets more.
  const peers = peerCount(excerpts, trim.peerShare ?? 1);
  admit(0, peers);
  grow();
  admit(peers, turns.length);
  grow();
  // The next excerpt after the last admitted one is offered to the budget whole: it cuts it
  // into the room left (at a sentence) or drops it, as with no fitting at all.
  const last = masks.length - 1;
  if (left.length > 0 && left[0] > last) {
    left.shift();
  }
  masks.forEach((keep, i) => {
    if (keep && !keep.every(Boolean)) {
      excerpts[i] = {
        ...excerpts[i],
        content: renderKept(turns[i], keep).join('\n'),
        trimmed: true,
      };
    }
  });
  return left;
}

/**
 * How many excerpts (best first) score at least `share` of the best: the best and its peers.
 * A best without a positive finite score has none (a share of it means nothing).
 */
function peerCount(excerpts: readonly FittedExcerpt[], share: number): number {
  const best = excerpts[0]?.score;
  if (best === undefined || !Number.isFinite(best) || best <= 0 || !Number.isFinite(share)) {
    return 1;
  }
  let n = 1;
  while (n < excerpts.length && (excerpts[n].score ?? Number.NaN) >= best * share) {
    n++;
  }
  return n;
}
