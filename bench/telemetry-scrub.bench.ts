/**
 * What hashing contact ids costs telemetry, in CPU time (process.cpuUsage, so a busy box
 * slows it less than wall time would): scrubbing one /context request's exported spans (the
 * server span with an id in its path, the stage spans, a pg and a Redis span), and rewriting
 * one access-log URL. Compare with a request's own cost (bench:tracing, bench:context).
 *
 *   node -r @swc-node/register bench/telemetry-scrub.bench.ts   # BENCH_ITERATIONS (20000)
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';

import { type ReadableSpan, scrubSpan } from '../src/tracing/span-scrubbing';
import { TelemetryIds } from '../src/tracing/telemetry-ids';
import { printJson } from './support/stats';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 20_000);
const ids = new TelemetryIds('bench-telemetry-key-0123456789abcdef');

function span(name: string, attributes: ReadableSpan['attributes']): ReadableSpan {
  return {
    name,
    kind: SpanKind.INTERNAL,
    spanContext: () => ({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 1 }),
    startTime: [0, 0],
    endTime: [0, 1],
    status: { code: SpanStatusCode.UNSET },
    attributes,
    links: [],
    events: [],
    duration: [0, 1],
    ended: true,
    resource: {} as ReadableSpan['resource'],
    instrumentationScope: { name: 'bench' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

const stage = (name: string, n: number) =>
  span(name, Object.fromEntries(Array.from({ length: n }, (_, i) => [`${name}.a${i}`, i * 1.5])));

/** The spans one traced /v1/vector_stores/{id}/search exports, roughly. */
const REQUEST_SPANS: ReadableSpan[] = [
  span('POST /v1/vector_stores/:contact_uid/search', {
    'fastify.root': '@fastify/otel',
    'http.request.method': 'POST',
    'url.path': '/v1/vector_stores/%2B14155550134/search',
    'http.route': '/v1/vector_stores/:contact_uid/search',
    'http.response.status_code': 200,
  }),
  stage('context.build', 16),
  stage('context.coalesce', 3),
  stage('embedding.query', 3),
  stage('embedding.worker.batch', 2),
  span('retrieval.hybrid_search', {
    'retrieval.dense_hits': 20,
    'retrieval.contact_filter': true,
    'db.statement':
      'WITH dense AS (SELECT id, 1 - (embedding <=> $1) AS score FROM podium_conversations WHERE contact_uid = $2 ORDER BY embedding <=> $1 LIMIT $3) SELECT * FROM dense',
  }),
  stage('context.rerank', 5),
  stage('context.live_lookup', 2),
  stage('context.evidence', 6),
  span('evalsha', { 'db.system': 'redis', 'db.statement': 'evalsha' }),
];
const URL = '/contacts/jane.doe%40example.com/history';

function cpuMicros(work: () => void): number {
  const start = process.cpuUsage();
  for (let i = 0; i < ITERATIONS; i++) {
    work();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / ITERATIONS;
}

// Warm-up, so the JIT has compiled both paths before they are measured.
cpuMicros(() => REQUEST_SPANS.forEach((s) => scrubSpan(s, ids)));
const perRequest = cpuMicros(() => REQUEST_SPANS.forEach((s) => scrubSpan(s, ids)));
const perUrl = cpuMicros(() => ids.url(URL));
printJson({
  iterations: ITERATIONS,
  spans_per_request: REQUEST_SPANS.length,
  scrub_us_per_request: Math.round(perRequest * 10) / 10,
  scrub_us_per_span: Math.round((perRequest / REQUEST_SPANS.length) * 100) / 100,
  log_url_us: Math.round(perUrl * 100) / 100,
});
