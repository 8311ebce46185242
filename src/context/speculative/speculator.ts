import { TranscriptCoalescer } from '@app/coalescer';
import { withDeadline } from '@app/common';
import { type VectorFilter } from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { MetricsService } from '../../metrics/metrics.service';
import { ContextRetriever, type RankedPool } from '../context-retriever';
import { type CallSession, type SpeculationSlot, type SpeculativeResult } from './call-sessions';
import { QueryTerms } from './query-match';

/** An interim that stays this long without a newer one is searched (stable enough). */
export const DEBOUNCE_MS = 40;
/** Interim chunks one call may send per second; the rest are accepted but not searched. */
export const MAX_INTERIMS_PER_SECOND = 20;
/** Content terms an interim needs before it is worth a search (shorter pools are rarely kept). */
export const MIN_INTERIM_TERMS = 3;
/**
 * Speculative searches running at once in this process. One: the embedded database runs one
 * statement at a time, so each running speculation is a statement a final may queue behind.
 */
export const MAX_SPECULATING = 1;
/** A speculative pool older than this is not served (it was searched before this turn). */
export const MAX_SPECULATION_AGE_MS = 15_000;
/** The whole budget of one speculative search (it has no caller waiting on it). */
const SPECULATION_TIMEOUT_MS = 2_000;

/** What happened to an interim chunk (the 202 answer's `speculation`). */
export type InterimOutcome = 'scheduled' | 'rate_limited' | 'disabled';

/**
 * What a speculative search does once its pool is in, while no final needs the process: the
 * evidence its final would assemble (so a matching final skips select, redaction and budget)
 * and the call's forget check. Set by the caller, which owns the bundle's limits.
 */
export type PrepareServed = (query: string, ranked: RankedPool) => unknown;

/** How one interim is searched (see {@link Speculator.interim}). */
export interface InterimWork {
  poolK: number;
  /** The key its final will be coalesced under (the interim is searched as the final would be). */
  coalescerKey: string;
  filter: VectorFilter;
  /** A final is in flight or waiting: speculation must not start (it would delay it). */
  busy: () => boolean;
  prepare?: PrepareServed;
}

/** What a matching final takes from the speculation. */
export interface Served {
  ranked: RankedPool;
  /** The coalesced query the pool was searched for. */
  query: string;
  /** What {@link PrepareServed} returned for it, when it ran. */
  prepared?: unknown;
  /** `Date.now()` when its search started. */
  startedAt: number;
  similarity: number;
}

/** Counters for the voice bench and the docs (not per caller: no ids). */
export interface SpeculationStats {
  started: number;
  superseded: number;
  shed: number;
  /** Aborted because a final of another call arrived (finals never queue behind it). */
  preempted: number;
  served: number;
  unmatched: number;
}

/**
 * Retrieval on interim transcripts. An interim that stays stable for {@link DEBOUNCE_MS} is
 * searched (as its final would be: after the call's coalesced tail) unless the call's current
 * speculation already serves it ({@link QueryTerms.servedBy} on the two chunks' own terms:
 * the tail before them is the same). A newer interim that it does not cover aborts it
 * (superseded). A final chunk that matches the same way takes the pool (waiting for it within
 * its own deadline if still running); any other final drops it and searches afresh.
 *
 * Finals never wait behind it: speculation starts only while no final is in flight or waiting
 * (it only uses capacity finals leave idle), runs at most {@link MAX_SPECULATING} at once,
 * embeds in the `query` lane behind every final's embed, and a final arriving for another
 * call aborts it ({@link yieldTo}), which takes its queued embed and statements out of the
 * queues the final is about to join. Its pool's evidence is prepared only while still idle.
 */
@Injectable()
export class Speculator {
  private readonly running = new Set<SpeculationSlot>();
  readonly stats: SpeculationStats = {
    started: 0,
    superseded: 0,
    shed: 0,
    preempted: 0,
    served: 0,
    unmatched: 0,
  };

  /** Speculative searches running now. */
  get active(): number {
    return this.running.size;
  }

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly coalescer: TranscriptCoalescer,
    private readonly retriever: ContextRetriever,
    private readonly metrics: MetricsService,
  ) {}

  private count(outcome: keyof SpeculationStats): void {
    this.stats[outcome]++;
    this.metrics.speculation.inc({ outcome });
  }

  /** Takes an interim chunk of `session`; searched once stable (see the class). */
  interim(session: CallSession, text: string, work: InterimWork): InterimOutcome {
    if (!this.config.calls.speculation) {
      return 'disabled';
    }
    const now = Date.now();
    const window = session.interimWindow;
    if (now - window.start >= 1000) {
      window.start = now;
      window.count = 0;
    }
    if (++window.count > MAX_INTERIMS_PER_SECOND) {
      return 'rate_limited';
    }
    clearTimeout(session.interim?.timer);
    const interim: NonNullable<CallSession['interim']> = { text, poolK: work.poolK };
    interim.timer = setTimeout(() => void this.fire(session, interim, work), DEBOUNCE_MS);
    interim.timer.unref();
    session.interim = interim;
    return 'scheduled';
  }

  /**
   * A final (of `session`'s call, or of none) arrived: every speculative search of another
   * call that is still running is aborted, so none of its work stays queued ahead of the
   * final's. The final's own call keeps its search: that is what it may be served from.
   */
  yieldTo(session: CallSession | undefined): void {
    const own = session?.speculation;
    for (const slot of this.running) {
      if (slot !== own && !slot.abort.signal.aborted) {
        slot.abort.abort();
        this.count('preempted');
      }
    }
  }

  /**
   * The speculative pool for a final's `query`, or undefined (search afresh). Clears the
   * call's speculation either way: the next turn starts clean.
   */
  async take(
    session: CallSession,
    query: QueryTerms,
    poolK: number,
    left: () => number,
  ): Promise<Served | undefined> {
    clearTimeout(session.interim?.timer);
    session.interim = undefined;
    const slot = session.speculation;
    session.speculation = undefined;
    if (!slot) {
      return undefined;
    }
    const similarity = query.similarity(slot.terms);
    const fresh = Date.now() - slot.startedAt <= MAX_SPECULATION_AGE_MS;
    const matched = query.servedBy(slot.terms, this.config.calls.matchThreshold);
    if (!fresh || slot.poolK !== poolK || !matched || slot.abort.signal.aborted) {
      slot.abort.abort();
      this.count('unmatched');
      return undefined;
    }
    const waited = await withDeadline(left(), () => slot.result);
    if (waited.status !== 'ok' || !waited.value) {
      slot.abort.abort();
      this.count('unmatched');
      return undefined;
    }
    this.count('served');
    const { ranked, query: searched, prepared } = waited.value;
    return { ranked, query: searched, prepared, startedAt: slot.startedAt, similarity };
  }

  private async fire(
    session: CallSession,
    interim: NonNullable<CallSession['interim']>,
    work: InterimWork,
  ): Promise<void> {
    // Matched on the chunk's own terms: the tail before it is the same for interim and final.
    const terms = new QueryTerms(interim.text);
    if (terms.terms.size < MIN_INTERIM_TERMS) {
      return;
    }
    // A preempted search serves nothing: the next stable interim searches again.
    const current = session.speculation?.abort.signal.aborted ? undefined : session.speculation;
    if (
      current &&
      current.poolK === interim.poolK &&
      terms.servedBy(current.terms, this.config.calls.matchThreshold)
    ) {
      return; // what is running (or done) already serves this interim
    }
    const query = await this.coalescer.preview(work.coalescerKey, interim.text);
    if (session.interim !== interim) {
      return; // superseded while the tail was read: the newer interim fires on its own
    }
    if (this.running.size >= MAX_SPECULATING || work.busy()) {
      this.count('shed');
      return;
    }
    if (current) {
      current.abort.abort();
      this.count('superseded');
    }
    session.speculation = this.start(query, terms, work);
  }

  private start(query: string, terms: QueryTerms, work: InterimWork): SpeculationSlot {
    const abort = new AbortController();
    const startedAt = Date.now();
    const until = performance.now() + SPECULATION_TIMEOUT_MS;
    const left = () => (abort.signal.aborted ? 0 : Math.max(0, until - performance.now()));
    const result = this.search(query, work, left, abort.signal)
      // Shed by the embedder (503 embedder_busy) or aborted: simply no speculation.
      .catch(() => undefined)
      .finally(() => this.running.delete(slot));
    const slot: SpeculationSlot = { terms, poolK: work.poolK, startedAt, abort, result };
    this.running.add(slot);
    this.count('started');
    return slot;
  }

  private async search(
    query: string,
    work: InterimWork,
    left: () => number,
    signal: AbortSignal,
  ): Promise<SpeculativeResult | undefined> {
    const ranked = await this.retriever.retrieve(
      query,
      work.filter,
      work.poolK,
      left,
      {},
      'query',
      signal,
    );
    if (signal.aborted || ranked.missed) {
      return undefined;
    }
    // Preparing costs CPU (and the forget check a statement) a final would wait behind.
    if (!work.prepare || work.busy()) {
      return { ranked, query };
    }
    const prepared = await work.prepare(query, ranked);
    return signal.aborted ? undefined : { ranked, query, prepared };
  }
}
