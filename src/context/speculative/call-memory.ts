import { TranscriptCoalescer } from '@app/coalescer';
import { withDeadline } from '@app/common';
import { RedactionService } from '@app/redaction';
import { Injectable, Optional } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';

import { type HistoryTombstone, HistoryTombstones } from '../../relational/history-tombstones';
import { callLocations, type CallSession, type CallTurn } from './call-sessions';
import { coverage, QueryTerms } from './query-match';

/** Turns one call keeps in memory; older ones join the contact's history early. */
export const MAX_CALL_TURNS = 200;
/** Characters of redacted turns one call keeps in memory (the same early join past it). */
export const MAX_CALL_CHARS = 32_000;
/** Earlier turns a bundle carries at most. */
const RECALL_K = 3;
/** Share of the query's terms an earlier turn must hold to be recalled. */
const MIN_COVERAGE = 0.34;

/** An earlier final turn of this call that bears on this one. */
export class CallTurnExcerpt {
  @ApiProperty({ description: 'What was said earlier in this call, PII redacted.' })
  content!: string;

  @ApiProperty({ format: 'date-time' })
  said_at!: string;

  @ApiProperty({ description: "Share of the query's terms this turn holds, in (0, 1]." })
  score!: number;
}

/** What {@link CallMemory.recall} found. */
export interface Recalled {
  turns: CallTurnExcerpt[];
  /** The newest forget of this contact reaching where the call searches (ms epoch), if any. */
  forgottenAt?: number;
  /** This check dropped turns said before a forget (and the coalescer's tail with them). */
  dropped: boolean;
}

/**
 * The call's own memory: its final turns, redacted on arrival as ingested history is, and
 * found again on later turns by the terms they share with the query. Every recall checks the
 * contact's forget tombstones (stored, so a forget on another replica counts too): turns said
 * before a forget are dropped, as ingest drops forgotten messages.
 */
@Injectable()
export class CallMemory {
  constructor(
    private readonly redaction: RedactionService,
    private readonly tombstones: HistoryTombstones,
    /** Holds the call's last words too (the next chunk's query, echoed in `meta.query`). */
    @Optional() private readonly coalescer?: TranscriptCoalescer,
  ) {}

  /** Stores a final turn; returns the oldest turns pushed out by the bounds (to join history). */
  remember(session: CallSession, transcript: string): CallTurn[] {
    const text = this.redaction.redact(transcript).text.trim().replace(/\s+/g, ' ');
    // Empty, or the same chunk again (an adapter that resends the last user turn): nothing new.
    if (text.length === 0 || session.turns.at(-1)?.text === text) {
      return [];
    }
    session.turns.push({ text, terms: new QueryTerms(text), at: new Date() });
    session.chars += text.length;
    const spilled: CallTurn[] = [];
    while (
      session.turns.length > 1 &&
      (session.turns.length > MAX_CALL_TURNS || session.chars > MAX_CALL_CHARS)
    ) {
      const oldest = session.turns.shift() as CallTurn;
      session.chars -= oldest.text.length;
      spilled.push(oldest);
    }
    return spilled;
  }

  /**
   * Earlier turns that share terms with `query`, best first. `undefined` when the forget check
   * missed its deadline: then nothing of the call may be served (fails closed).
   */
  async recall(
    session: CallSession,
    query: QueryTerms,
    left: () => number,
  ): Promise<Recalled | undefined> {
    const contact = session.identity.contactUid;
    let forgottenAt: number | undefined;
    let dropped = false;
    if (contact) {
      const checked = await this.forgets(session, contact, left);
      if (checked === undefined) {
        return undefined;
      }
      const mine = checked.filter((t) => t.contact_uid === contact);
      // Where the call searches (undefined: every location) and its turns join history.
      const locations = callLocations(session.identity);
      const newest = (keep: (location: string) => boolean) =>
        mine
          .filter((t) => t.location_uid === '' || keep(t.location_uid))
          .reduce<number | undefined>(
            (at, t) => Math.max(at ?? 0, t.forgotten_at.getTime()),
            undefined,
          );
      // A pool searched over every location may hold what any location's forget removed;
      // turns stored without a location are reached only by a whole-contact forget, as ingest's.
      forgottenAt = newest((l) => locations?.includes(l) ?? true);
      const turnsForgottenAt = newest((l) => locations?.includes(l) ?? false);
      if (turnsForgottenAt !== undefined) {
        dropped = this.forget(session, turnsForgottenAt);
      }
    }
    const turns = session.turns
      .map((turn) => ({ turn, score: coverage(query, turn.terms) }))
      .filter((s) => s.score >= MIN_COVERAGE)
      .sort((a, b) => b.score - a.score || b.turn.at.getTime() - a.turn.at.getTime())
      .slice(0, RECALL_K)
      .map(({ turn, score }) => ({
        content: turn.text,
        said_at: turn.at.toISOString(),
        score: Math.round(score * 1000) / 1000,
      }));
    return { turns, forgottenAt, dropped };
  }

  /**
   * Reads the contact's forgets ahead of the call's next final (a speculative search does, once
   * its pool is in), so that final does not wait on the statement: see {@link forgets}.
   */
  async precheck(session: CallSession, left: () => number): Promise<void> {
    const contact = session.identity.contactUid;
    if (contact && this.tombstones.singleWriter) {
      await this.forgets(session, contact, left);
    }
  }

  /**
   * The contact's forget tombstones, undefined when the check missed its deadline. On a
   * single-writer store the call's last read is reused while this process wrote none since it
   * began (no forget can have landed in between); otherwise every check reads the store, so a
   * forget on another replica counts too.
   */
  private async forgets(
    session: CallSession,
    contact: string,
    left: () => number,
  ): Promise<readonly HistoryTombstone[] | undefined> {
    const writes = this.tombstones.writes;
    const single = this.tombstones.singleWriter;
    if (single && session.forgets?.writes === writes) {
      return session.forgets.rows;
    }
    const checked = await withDeadline(left(), () => this.tombstones.tombstones([contact]));
    if (checked.status !== 'ok') {
      return undefined;
    }
    if (single) {
      session.forgets = { writes, rows: checked.value };
    }
    return checked.value;
  }

  /**
   * Drops the turns said at or before `forgottenAt` (a forget's rule for messages); true when
   * there were any.
   */
  private forget(session: CallSession, forgottenAt: number): boolean {
    const kept = session.turns.filter((t) => t.at.getTime() > forgottenAt);
    if (kept.length === session.turns.length) {
      return false;
    }
    session.turns.splice(0, session.turns.length, ...kept);
    session.chars = kept.reduce((sum, t) => sum + t.text.length, 0);
    // The coalescer's tail is made of the same finals: it goes with them (never throws).
    void this.coalescer?.forget(session.key);
    return true;
  }
}
