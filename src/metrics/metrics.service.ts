import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.4, 0.6, 0.8, 1, 2.5, 5,
];

/**
 * Prometheus metrics. Labels are bounded (route patterns, stage names), never ids or text.
 * The partial rate is `context_bridge_context_partial_total / context_bridge_context_requests_total`;
 * the spec pages above 5% sustained (the alert rule is in docs/operations.md).
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'context_bridge_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern, method and status code.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly stageDuration = new Histogram({
    name: 'context_bridge_context_stage_duration_seconds',
    help: 'Latency of each /context pipeline stage.',
    labelNames: ['stage'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly contextRequests = new Counter({
    name: 'context_bridge_context_requests_total',
    help: 'Context bundles built.',
    registers: [this.registry],
  });

  readonly contextPartial = new Counter({
    name: 'context_bridge_context_partial_total',
    help: 'Context bundles shipped with partial=true (a stage missed its deadline or failed).',
    registers: [this.registry],
  });

  readonly stageMisses = new Counter({
    name: 'context_bridge_context_stage_misses_total',
    help: 'Pipeline stages that missed their deadline or failed, by stage.',
    labelNames: ['stage'] as const,
    registers: [this.registry],
  });

  readonly contextHits = new Histogram({
    name: 'context_bridge_context_hits',
    help: 'Historical excerpts per context bundle.',
    buckets: [0, 1, 2, 3, 5, 8, 13, 20],
    registers: [this.registry],
  });

  readonly speculation = new Counter({
    name: 'context_bridge_speculation_total',
    help: 'Speculative searches on interim speech, by outcome (started, superseded, shed, preempted, served, unmatched).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly ingested = new Counter({
    name: 'context_bridge_ingest_chunks_total',
    help: 'Chunks processed by ingestion, by outcome.',
    labelNames: ['collection', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'context_bridge_' });
  }
}
