import { DomainError } from '@app/common';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';

import { type LocationScope } from '../../auth/principal';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { type HistoryTombstone } from '../../relational/history-tombstones';
import { type RankedPool } from '../context-retriever';
import { type QueryTerms } from './query-match';

/** Who a call belongs to: the session key is made of all of it. */
export interface CallIdentity {
  /** The caller as the rate limiter counts it (`key:<name>` or `ip:<addr>`). */
  caller: string;
  callId: string;
  contactUid?: string;
  locationUid?: string;
  scope: LocationScope;
}

/**
 * Where the call searches and its turns belong: its named location, else the key's binding
 * (one location: where they join history; several: any of them, a forget of one counts).
 * Undefined when unnamed and unbound: every location is searched, turns stored without one.
 */
export function callLocations(id: CallIdentity): readonly string[] | undefined {
  return id.locationUid !== undefined ? [id.locationUid] : id.scope;
}

/** One final transcript chunk of the call, redacted as history is. */
export interface CallTurn {
  text: string;
  terms: QueryTerms;
  at: Date;
}

/** The speculative retrieval a call holds (see Speculator). */
export interface SpeculationSlot {
  /** The interim chunk's own terms (the search itself ran on the coalesced query). */
  terms: QueryTerms;
  poolK: number;
  /** `Date.now()` when the search started: the age the bundle reports counts from here. */
  startedAt: number;
  abort: AbortController;
  /** Settles with the pool, or undefined when it missed, failed, was shed or aborted. */
  result: Promise<SpeculativeResult | undefined>;
}

/** A speculative search's outcome: its pool, the query it searched, what was prepared. */
export interface SpeculativeResult {
  ranked: RankedPool;
  query: string;
  /** What the caller's prepare step returned (see Speculator's `PrepareServed`). */
  prepared?: unknown;
}

/**
 * The contact's forget tombstones as last read for this call, and the count of this process's
 * tombstone writes before that read (reused only while no write followed; see CallMemory).
 */
export interface CheckedForgets {
  writes: number;
  rows: readonly HistoryTombstone[];
}

/** A live call's state, in this process only (a call is served by the replica it rang on). */
export class CallSession {
  readonly turns: CallTurn[] = [];
  chars = 0;
  lastSeen = Date.now();
  speculation?: SpeculationSlot;
  /** The last forget check's result, reusable on a single-writer store (see CallMemory). */
  forgets?: CheckedForgets;
  /** The latest interim text and its debounce timer. */
  interim?: { text: string; poolK: number; timer?: NodeJS.Timeout };
  /** Interim chunks accepted in the current one-second window (the rate bound). */
  interimWindow = { start: 0, count: 0 };
  constructor(
    readonly key: string,
    readonly identity: CallIdentity,
  ) {}
}

/** The caller (or the service) already tracks as many live calls as it may (429). */
export class TooManyCallsError extends DomainError {
  constructor(scope: 'caller' | 'service') {
    super(
      'too_many_calls',
      scope === 'caller'
        ? 'This caller already has CALLS_MAX_PER_CALLER live calls; end one (POST /calls/end) or let it idle out.'
        : 'The service already tracks CALLS_MAX live calls; retry shortly.',
      429,
      { retry_after_s: 5 },
    );
  }
}

/** Where a call's turns go when it ends (the contact's history); set by the calls module. */
export type JoinHistory = (identity: CallIdentity, turns: readonly CallTurn[]) => Promise<void>;

/**
 * The registry of live calls: bounded in total and per caller, each ended after
 * `CALLS_IDLE_MS` without an event (its turns then join the contact's history, as on an
 * explicit end). Keyed by caller, tenant, contact and call id, so a reused or guessed call id
 * never reaches another key's, tenant's or contact's call.
 */
@Injectable()
export class CallSessions implements OnModuleDestroy {
  private readonly logger = new Logger(CallSessions.name);
  private readonly sessions = new Map<string, CallSession>();
  private readonly perCaller = new Map<string, number>();
  private readonly sweeper: NodeJS.Timeout;
  onJoin?: JoinHistory;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.sweeper = setInterval(() => this.sweep(), Math.max(1000, config.calls.idleMs / 4));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  static keyOf(id: CallIdentity): string {
    const tenant = id.locationUid ?? id.scope?.join('|') ?? '';
    return [id.caller, tenant, id.contactUid ?? '', id.callId].join('\u001f');
  }

  find(id: CallIdentity): CallSession | undefined {
    const session = this.sessions.get(CallSessions.keyOf(id));
    if (session) {
      session.lastSeen = Date.now();
    }
    return session;
  }

  /** The call's session, opened if new; 429 `too_many_calls` past either bound. */
  open(id: CallIdentity): CallSession {
    const found = this.find(id);
    if (found) {
      return found;
    }
    const held = this.perCaller.get(id.caller) ?? 0;
    if (held >= this.config.calls.maxCallsPerCaller) {
      throw new TooManyCallsError('caller');
    }
    if (this.sessions.size >= this.config.calls.maxCalls) {
      throw new TooManyCallsError('service');
    }
    const session = new CallSession(CallSessions.keyOf(id), id);
    this.sessions.set(session.key, session);
    this.perCaller.set(id.caller, held + 1);
    return session;
  }

  /** Like {@link open}, but a full registry yields no session (a final is served without). */
  tryOpen(id: CallIdentity): CallSession | undefined {
    try {
      return this.open(id);
    } catch (error) {
      if (error instanceof TooManyCallsError) {
        return undefined;
      }
      throw error;
    }
  }

  /** Ends the call: its state goes, its turns join the contact's history. */
  async end(id: CallIdentity): Promise<CallSession | undefined> {
    const session = this.sessions.get(CallSessions.keyOf(id));
    if (session) {
      await this.close(session);
    }
    return session;
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.sessions.values()].map((s) => this.close(s)));
  }

  /** Hands `turns` to the contact's history; never throws (a failure is logged, class only). */
  async join(session: CallSession, turns: readonly CallTurn[]): Promise<void> {
    if (turns.length === 0 || !session.identity.contactUid) {
      return;
    }
    try {
      await this.onJoin?.(session.identity, turns);
    } catch (error) {
      // Turns are redacted, but an error may quote them: the class only.
      this.logger.warn(`a call's turns did not join its history (${(error as Error).name})`);
    }
  }

  private async close(session: CallSession): Promise<void> {
    this.detach(session);
    await this.join(session, session.turns);
  }

  private detach(session: CallSession): void {
    if (this.sessions.get(session.key) !== session) {
      return;
    }
    this.sessions.delete(session.key);
    session.speculation?.abort.abort();
    clearTimeout(session.interim?.timer);
    const left = (this.perCaller.get(session.identity.caller) ?? 1) - 1;
    if (left > 0) {
      this.perCaller.set(session.identity.caller, left);
    } else {
      this.perCaller.delete(session.identity.caller);
    }
  }

  private sweep(): void {
    const idleBefore = Date.now() - this.config.calls.idleMs;
    for (const session of [...this.sessions.values()]) {
      if (session.lastSeen < idleBefore) {
        void this.close(session);
      }
    }
  }
}
