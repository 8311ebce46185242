import { roundMs } from '@app/common';
import { type VectorFilter } from '@app/vector';
import { Injectable } from '@nestjs/common';

import { type LocationScope } from '../../auth/principal';
import { type ContextRequestDto } from '../context.dto';
import { ContextRetriever, type RankedPool } from '../context-retriever';
import { datedRange } from '../dated/dated-leg';
import { CallMemory, type CallTurnExcerpt } from './call-memory';
import { type CallIdentity, type CallSession, CallSessions } from './call-sessions';
import { QueryTerms } from './query-match';
import {
  type InterimOutcome,
  type InterimWork,
  type PrepareServed,
  Speculator,
} from './speculator';

/** The forget check a speculation makes ahead of its final (off any caller's deadline). */
const FORGET_PRECHECK_MS = 1_000;

/** A final turn's retrieval: the pool, where it came from, and the call's recalled turns. */
export interface FinalRetrieval {
  ranked: RankedPool;
  /** Set when the pool was searched on interim speech (`Date.now()` of that search). */
  speculatedAt?: number;
  /** With `speculatedAt`: the query that search ran and what was prepared for its final. */
  speculated?: { query: string; prepared?: unknown };
  /** Earlier turns of this call (undefined without a call, or when the forget check missed). */
  recalled?: CallTurnExcerpt[];
  /** The forget check missed its deadline: nothing of the call's own turns was served. */
  memoryMissed: boolean;
  /**
   * The coalesced query may hold words said before a forget (its tail): the forget check
   * dropped turns, or missed. The bundle then echoes only the chunk itself.
   */
  tailForgotten?: boolean;
}

/**
 * The per-call part of `/context`: which call a chunk belongs to, interim chunks (speculation),
 * and for a final one the speculative pool if it matches, else a fresh search, beside the
 * call's earlier turns.
 */
@Injectable()
export class CallTurns {
  constructor(
    private readonly sessions: CallSessions,
    private readonly memory: CallMemory,
    private readonly speculator: Speculator,
    private readonly retriever: ContextRetriever,
  ) {}

  static identity(
    request: Pick<ContextRequestDto, 'call_id' | 'contact_uid' | 'location_uid'>,
    scope: LocationScope,
    caller: string,
  ): CallIdentity | undefined {
    return request.call_id
      ? {
          caller,
          callId: request.call_id,
          contactUid: request.contact_uid,
          locationUid: request.location_uid,
          scope,
        }
      : undefined;
  }

  /**
   * 429 `too_many_calls` when the call is new and a bound is reached. `prepare` (the evidence
   * its final would assemble) runs once the pool is in, beside the call's forget check.
   */
  interim(
    identity: CallIdentity,
    transcript: string,
    work: Omit<InterimWork, 'prepare'>,
    prepare: PrepareServed,
  ): InterimOutcome {
    const session = this.sessions.open(identity);
    if (!identity.contactUid) {
      return 'disabled'; // its pool could never be served (see retrieve)
    }
    return this.speculator.interim(session, transcript, {
      ...work,
      prepare: async (query, ranked) => {
        await this.memory.precheck(session, () => FORGET_PRECHECK_MS);
        return prepare(query, ranked);
      },
    });
  }

  /** A final of this call (or of none) arrived: other calls' speculation yields to it. */
  yieldTo(identity: CallIdentity | undefined): void {
    this.speculator.yieldTo(identity && this.sessions.find(identity));
  }

  /** The session of a final chunk (opened if new; none when the registry is full). */
  session(identity: CallIdentity | undefined): CallSession | undefined {
    return identity && this.sessions.tryOpen(identity);
  }

  /**
   * `query`: the coalesced query (searched); `chunk`: this final chunk alone, which earlier
   * turns are recalled by (the coalescer's tail is in the query already).
   */
  async retrieve(
    session: CallSession | undefined,
    query: string,
    chunk: string,
    filter: VectorFilter,
    poolK: number,
    left: () => number,
    stages: Record<string, number>,
    askedAt?: Date,
  ): Promise<FinalRetrieval> {
    const fresh = () =>
      this.retriever.retrieve(query, filter, poolK, left, stages, 'context', undefined, askedAt);
    if (!session) {
      return { ranked: await fresh(), memoryMissed: false };
    }
    // Both on the chunk's own terms: the coalescer's tail is the same for the interims and
    // the final, and it holds the previous turn, which recall must not find as "earlier".
    const terms = new QueryTerms(chunk);
    const t0 = performance.now();
    const recalling = this.memory.recall(session, terms, left);
    // Without a contact the pool spans every contact of the tenant, and no forget check covers
    // them all: a pool searched before a forget of any of them is never served (fails closed).
    // Speculation searches without `asked_at`: a final whose date it resolves searches anew.
    const served =
      session.identity.contactUid && !resolvesDate(query, askedAt)
        ? await this.speculator.take(session, terms, poolK, left)
        : undefined;
    if (!served) {
      // A fresh search does not wait for the forget check: the store hides what a forget removed.
      const [ranked, recalled] = await Promise.all([fresh(), recalling]);
      return {
        ranked,
        recalled: recalled?.turns,
        memoryMissed: recalled === undefined,
        tailForgotten: recalled?.dropped ?? true,
      };
    }
    const recalled = await recalling;
    // A forget after the speculative search began: that pool may hold what it removed.
    if (recalled !== undefined && (recalled.forgottenAt ?? 0) < served.startedAt) {
      stages.speculation_ms = roundMs(performance.now() - t0);
      return {
        ranked: served.ranked,
        speculatedAt: served.startedAt,
        speculated: { query: served.query, prepared: served.prepared },
        recalled: recalled.turns,
        memoryMissed: false,
        tailForgotten: recalled.dropped,
      };
    }
    return {
      ranked: await fresh(),
      recalled: recalled?.turns,
      memoryMissed: recalled === undefined,
      tailForgotten: recalled?.dropped ?? true,
    };
  }

  /** After the bundle: the final chunk joins the call's memory; overflow joins history now. */
  remember(session: CallSession | undefined, transcript: string): void {
    if (session) {
      const spilled = this.memory.remember(session, transcript);
      if (spilled.length > 0) {
        void this.sessions.join(session, spilled);
      }
    }
  }
}

/** True when `askedAt` gives `query` a date range it names no range without (see `datedRange`). */
function resolvesDate(query: string, askedAt: Date | undefined): boolean {
  return askedAt !== undefined && !datedRange(query) && datedRange(query, askedAt) !== undefined;
}
