import { TranscriptCoalescer } from '@app/coalescer';
import { type DeadlineResult, liveTraffic, roundMs } from '@app/common';
import { type ContactLookup, PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';

import { type LocationScope } from '../auth/principal';
import { scopedLocations } from '../auth/tenant';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { MetricsService } from '../metrics/metrics.service';
import { AdmissionGate } from './admission-gate';
import { coalescerKey, historyFilter } from './call-scope';
import { type ContextBundle, type ContextFetchRequestDto } from './context.dto';
import { ContextRetriever } from './context-retriever';
import * as spans from './context-spans';
import { callerClock } from './dated/dated-leg';
import { EvidenceAssembler } from './evidence/evidence-assembler';
import { ContextExplainer } from './explain/context-explainer';
import { scopeLive, toBundleContact } from './live-contact';
import { LoopLag } from './loop-lag';
import { type CallIdentity } from './speculative/call-sessions';
import { CallTurns } from './speculative/call-turns';
import { FinalsFirst } from './speculative/finals-first';
import { PreparedEvidence } from './speculative/prepared-evidence';
import { type InterimOutcome } from './speculative/speculator';

/** Shortest useful build once admitted: a request that cannot start earlier is shed. */
const MIN_BUILD_MS = 120;

/** Coalescing state lives in Redis when shared: never let it eat the whole deadline. */
const COALESCE_MAX_MS = 40;

/** Time kept back after the fan-out for merge, redaction, budget and serialization. */
const reserveFor = (timeoutMs: number) => Math.min(25, Math.floor(timeoutMs * 0.15));
/** The most of a deadline that event-loop lag may add to the reserve. */
const MAX_LAG_SHARE = 0.3;

/**
 * The context bridge pipeline: coalesce → fan out (embed→search→rerank ‖ live lookup) →
 * merge (live wins) → evidence (distinct, trimmed excerpts) → redact → budget. Every stage runs under what is left of one deadline;
 * a stage that misses it is skipped and the bundle says so (`partial`), rather than late.
 */
@Injectable()
export class ContextService implements OnModuleDestroy {
  private readonly gate: AdmissionGate;
  private readonly lag = new LoopLag();
  private readonly finalsFirst: FinalsFirst;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly coalescer: TranscriptCoalescer,
    private readonly retriever: ContextRetriever,
    private readonly calls: CallTurns,
    @Inject(PODIUM_CONTACTS) private readonly podium: PodiumContacts,
    private readonly evidence: EvidenceAssembler,
    private readonly metrics: MetricsService,
    private readonly explainer: ContextExplainer,
  ) {
    this.gate = new AdmissionGate(config.context.maxInFlight);
    this.finalsFirst = new FinalsFirst(this.gate, calls);
  }

  /** Finals hold speculation back now (one is in flight, or one came or went just now). */
  get speculationHeld(): boolean {
    return this.finalsFirst.busy();
  }

  onModuleDestroy(): void {
    this.lag.stop();
  }

  /**
   * `scope`: the caller's locations (a location-bound API key), enforced in the store's
   * query and against the live contact (outside them it reads as unknown); naming another
   * location is 403 `location_forbidden`. `undefined` is unscoped.
   *
   * `arrivedAt` (`performance.now()` clock): when the request reached the service, so the
   * deadline and `meta.elapsed_ms` include what ran before this call (parsing, guards, rate
   * limiting, validation: `stages.intake_ms`). Defaults to now (the CLI).
   */
  async build(
    request: ContextFetchRequestDto,
    scope?: LocationScope,
    arrivedAt = performance.now(),
    caller = 'internal',
  ): Promise<ContextBundle> {
    // Before any work: an explicit location outside the key's binding is refused outright.
    const locations = scopedLocations(scope, request.location_uid);
    const call = CallTurns.identity(request, scope, caller);
    const entered = performance.now();
    const started = Math.min(arrivedAt, entered);
    const timeoutMs = request.timeout_ms ?? this.config.context.timeoutMs;
    // Under CPU contention timers fire late: keep the recent lag in reserve as well, so the
    // answer leaves on time rather than a stage's timer firing after the deadline.
    const lag = Math.min(this.lag.p99Ms, timeoutMs * MAX_LAG_SHARE);
    const deadline = started + timeoutMs - reserveFor(timeoutMs) - lag;
    // Before queueing: no other call's speculative work may stay queued ahead of this final.
    this.finalsFirst.arrived(call);
    // Background work (forgets, ingests) paces itself while live calls are present.
    const leave = liveTraffic.enter();
    try {
      const release = await this.gate.acquire(deadline - performance.now() - MIN_BUILD_MS);
      const stages = {
        intake_ms: roundMs(entered - started),
        queue_ms: roundMs(performance.now() - entered),
      };
      if (!release) {
        return this.shed(request, timeoutMs, started, stages);
      }
      try {
        const tenant = { scope, locations, call };
        return await this.run(request, tenant, timeoutMs, started, deadline, stages);
      } finally {
        release();
        this.finalsFirst.left();
      }
    } finally {
      leave();
    }
  }

  private async run(
    request: ContextFetchRequestDto,
    tenant: { scope: LocationScope; locations: string[] | undefined; call?: CallIdentity },
    timeoutMs: number,
    started: number,
    deadline: number,
    before: { intake_ms: number; queue_ms: number },
  ): Promise<ContextBundle> {
    const defaults = this.config.context;
    const left = () => Math.max(0, deadline - performance.now());
    const stages: Record<string, number> = { ...before };

    const coalesced = await spans.stageWithDeadline(
      'context.coalesce',
      Math.min(COALESCE_MAX_MS, left()),
      () => this.coalescer.feed(coalescerKey(tenant.call), request.transcript),
      spans.coalesceAttributes,
    );
    stages.coalesce_ms = roundMs(coalesced.ms);
    const query = coalesced.status === 'ok' ? coalesced.value.query : request.transcript.trim();

    const filter = historyFilter(request, tenant.locations);
    const live: Promise<DeadlineResult<ContactLookup> | undefined> = request.contact_uid
      ? spans.stageWithDeadline(
          'context.live_lookup',
          left(),
          // A bound key's lookups count against its own Podium budget (the org's quota).
          (signal) =>
            this.podium.getContact(request.contact_uid as string, signal, tenant.scope?.join(',')),
          spans.liveAttributes,
        )
      : Promise.resolve(undefined);
    const session = this.calls.session(tenant.call);
    const poolK = this.evidence.poolSize(request.final_k, request.pool_k);
    const retrieval = this.calls.retrieve(
      session,
      query,
      request.transcript,
      filter,
      poolK,
      left,
      stages,
      request.asked_at === undefined ? undefined : callerClock(request.asked_at),
    );
    const [answer, found] = await Promise.all([live, retrieval]);
    const ranked = found.ranked;
    if (answer) {
      stages.live_ms = roundMs(answer.ms);
    }
    // A contact outside a bound key's locations is answered as unknown (404 in the bundle),
    // never 403, which would tell the key it exists elsewhere. History stays inside the
    // key's locations either way: the store's filter holds the tenant boundary.
    const liveOutcome = answer && scopeLive(answer, tenant.scope);

    const contact = toBundleContact(liveOutcome);
    const explain = request.explain === true;
    const maxTokens = request.max_tokens ?? defaults.maxTokens;
    // Served from speculation with the same query: its evidence was assembled off this path.
    const final = { query, finalK: request.final_k, maxTokens, explain };
    const prepared = PreparedEvidence.servedTo(found.speculated?.prepared, final);
    const assembled =
      prepared ??
      spans.stage(
        'context.evidence',
        () =>
          this.evidence.assemble(
            query,
            ranked.pool,
            this.evidence.limits(request.final_k),
            maxTokens,
            {},
            explain,
          ),
        spans.evidenceAttributes,
      );
    Object.assign(stages, prepared ? {} : assembled.timings);

    const liveMissed = liveOutcome !== undefined && liveOutcome.status !== 'ok';
    const partialReasons = [
      ...(ranked.missed
        ? [ranked.reranked || ranked.pool.length === 0 ? 'retrieval' : 'rerank']
        : []),
      ...(liveMissed ? ['live'] : []),
      ...(coalesced.status !== 'ok' ? ['coalesce'] : []),
      ...(found.memoryMissed ? ['call_memory'] : []),
    ];
    this.record(stages, partialReasons, assembled.excerpts.length);
    // Within the same deadline (what would pass it is left out); assigned, not spread, below:
    // without explain the answer is built exactly as before.
    const explained = explain
      ? this.explainer.explain({
          query,
          pool: ranked.pool,
          reranked: ranked.reranked,
          poolK,
          evidence: assembled,
          stages,
          until: started + timeoutMs - reserveFor(timeoutMs) / 2,
        })
      : undefined;
    const bundle: ContextBundle = {
      contact,
      historical_excerpts: assembled.excerpts,
      token_count: assembled.token_count,
      meta: {
        query: found.tailForgotten ? request.transcript.trim() : query,
        elapsed_ms: roundMs(performance.now() - started),
        timeout_ms: timeoutMs,
        partial: partialReasons.length > 0,
        had_vector_hits: ranked.pool.length > 0,
        had_live_lookup: contact.live_fields_available,
        reranked: ranked.reranked,
        reranker: this.retriever.rerankerName,
        stages,
        redactions: assembled.redactions,
        dropped_excerpts: assembled.budgetDropped,
        speculative: found.speculatedAt !== undefined,
        retrieved_age_ms: found.speculatedAt === undefined ? 0 : Date.now() - found.speculatedAt,
      },
    };
    if (found.recalled) {
      bundle.call_memory = found.recalled;
    }
    if (explained) {
      bundle.explain = explained;
    }
    this.calls.remember(session, request.transcript);
    return bundle;
  }

  /**
   * An interim chunk (`is_final: false`): searched ahead of its final when stable, never
   * answered with a bundle. 429 `too_many_calls` when the call is new and a bound is reached.
   */
  interim(
    request: ContextFetchRequestDto,
    scope: LocationScope,
    caller: string,
    onPrepared?: (prepared: PreparedEvidence) => void,
  ): InterimOutcome {
    const locations = scopedLocations(scope, request.location_uid);
    const call = CallTurns.identity(request, scope, caller) as CallIdentity;
    const poolK = this.evidence.poolSize(request.final_k, request.pool_k);
    // Finals come first: speculation starts (and prepares) only while they leave it idle.
    const busy = this.finalsFirst.busy;
    const maxTokens = request.max_tokens ?? this.config.context.maxTokens;
    const filter = historyFilter(request, locations);
    const work = { poolK, coalescerKey: coalescerKey(call) as string, filter, busy };
    const prepare = PreparedEvidence.preparer(this.evidence, request.final_k, maxTokens);
    // A stream pushes the evidence as soon as it is ready (its final then only confirms it).
    const announce: typeof prepare = onPrepared
      ? (query, ranked) => {
          const prepared = prepare(query, ranked) as PreparedEvidence;
          onPrepared(prepared);
          return prepared;
        }
      : prepare;
    return this.calls.interim(call, request.transcript, work, announce);
  }

  /** Overloaded: answer now with nothing rather than late with something (the spec's rule). */
  private shed(
    request: ContextFetchRequestDto,
    timeoutMs: number,
    started: number,
    stages: { intake_ms: number; queue_ms: number },
  ): ContextBundle {
    this.record(stages, ['admission'], 0);
    const bundle: ContextBundle = {
      contact: { live_fields_available: false, error: 'overloaded' },
      historical_excerpts: [],
      token_count: 0,
      meta: {
        query: request.transcript.trim(),
        elapsed_ms: roundMs(performance.now() - started),
        timeout_ms: timeoutMs,
        partial: true,
        had_vector_hits: false,
        had_live_lookup: false,
        reranked: false,
        reranker: this.retriever.rerankerName,
        stages,
        redactions: {},
        dropped_excerpts: 0,
        speculative: false,
        retrieved_age_ms: 0,
      },
    };
    if (request.explain === true) {
      bundle.explain = this.explainer.shed(
        this.evidence.poolSize(request.final_k, request.pool_k),
        stages,
      );
    }
    return bundle;
  }

  private record(stages: Record<string, number>, partialReasons: string[], hits: number): void {
    this.metrics.contextRequests.inc();
    if (partialReasons.length > 0) {
      this.metrics.contextPartial.inc();
    }
    partialReasons.forEach((stage) => this.metrics.stageMisses.inc({ stage }));
    this.metrics.contextHits.observe(hits);
    Object.entries(stages).forEach(([stage, ms]) =>
      this.metrics.stageDuration.observe({ stage: stage.replace(/_ms$/, '') }, ms / 1000),
    );
  }
}
