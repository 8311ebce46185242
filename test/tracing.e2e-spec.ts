import { type ObservedServer, startObservedServer } from './support/observed-app';
import { attributesOf, OtlpCollector, type OtlpSpan } from './support/otlp-collector';
import { engineEnv, TEST_ENGINE } from './support/postgres';
import { startRedis, type TestRedis } from './support/redis';

/**
 * OpenTelemetry end to end, as production starts it: `src/main.ts` in a child process (the
 * instrumentations must be registered before the app's modules load, which an in-process
 * Jest app cannot show), exporting OTLP/HTTP JSON to a collector on loopback, with Redis
 * (the coalescer) and, in the e2e-postgres project, a Postgres server.
 */

/** The caller's trace: a voice agent's `traceparent` (W3C trace context). */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${CALLER_SPAN}-01`;

/** Customer PII that must never reach a span or a log line, in any of its spellings. */
const EMAIL = 'jane.doe@example.com';
const PHONE = '(415) 555-0134';
const LEAKS = [/jane\.doe/i, /example\.com/i, /415\D{0,3}555\D{0,3}0134/];
const leaked = (text: string) => LEAKS.filter((pattern) => pattern.test(text));

/** The /context stages that each get a span. */
const STAGE_SPANS = [
  'context.build',
  'context.coalesce',
  'embedding.query',
  'embedding.worker.batch',
  'retrieval.hybrid_search',
  'context.rerank',
  'context.live_lookup',
  'context.evidence',
];

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('OpenTelemetry traces (OTLP/HTTP to a loopback collector)', () => {
  let collector: OtlpCollector;
  let redis: TestRedis;
  let server: ObservedServer;
  let release: () => Promise<void>;
  let contextRequestId: string;
  let traceHeader: string | null;

  beforeAll(async () => {
    collector = await OtlpCollector.start();
    redis = await startRedis();
    const engine = await engineEnv();
    release = engine.release;
    server = await startObservedServer({
      DATA_DIR: 'memory://',
      SEED_DEMO_DATA: 'false',
      EMBEDDING_WORKERS: '1',
      NODE_ENV: 'test',
      // Every line the service can write for a request, not only the access log.
      LOG_LEVEL: 'trace',
      REDIS_URL: redis.url,
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'context-bridge-test',
      OTEL_BSP_SCHEDULE_DELAY: '50',
      ...engine.env,
    });

    const ingest = await post(`${server.url}/ingest/conversations`, [
      {
        conversation_uid: 'conv_trace',
        contact_uid: 'ctc_trace',
        channel: 'sms',
        occurred_at: '2026-05-01T10:00:00Z',
        sender: 'customer',
        text: `The sofa should go on the back porch. Email me at ${EMAIL} or call ${PHONE}.`,
      },
    ]);
    expect(ingest.status).toBe(200);
    // The first chunk of a call: its tail (with the PII) is kept in Redis for the next one.
    const first = await post(`${server.url}/context`, {
      transcript: `when does my sofa ship, you can reach me at ${EMAIL} or ${PHONE}`,
      contact_uid: 'ctc_trace',
      call_id: 'call_trace',
    });
    expect(first.status).toBe(200);
    const traced = await post(
      `${server.url}/context`,
      {
        transcript: `and it goes on the back porch, my email again is ${EMAIL}`,
        contact_uid: 'ctc_trace',
        call_id: 'call_trace',
      },
      { traceparent: TRACEPARENT },
    );
    expect(traced.status).toBe(200);
    contextRequestId = traced.headers.get('x-request-id') ?? '';
    traceHeader = traced.headers.get('x-trace-id');
    await collector.until('the stage spans of the traced call', (spans) =>
      STAGE_SPANS.every((name) => spans.some((s) => s.traceId === TRACE_ID && s.name === name)),
    );
    // A clean shutdown flushes what the batch processor still holds.
    server.child.kill('SIGTERM');
    await server.exited;
  }, 240_000);

  afterAll(async () => {
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
    await release?.();
    await redis?.stop();
    await collector?.close();
  });

  const inTrace = (): OtlpSpan[] => collector.spans.filter((s) => s.traceId === TRACE_ID);

  it("continues the caller's trace: its trace id is ours, and the server span is its child", () => {
    // One server span per request, Fastify's, named by method and route.
    const servers = inTrace().filter((s) => s.parentSpanId === CALLER_SPAN);
    expect(servers).toEqual([
      expect.objectContaining({ scope: '@fastify/otel', name: 'POST /context' }),
    ]);
    expect(traceHeader).toBe(TRACE_ID);
  });

  it('gives every /context stage a span in that one trace, with counts and flags', () => {
    const names = inTrace().map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(STAGE_SPANS));
    const byName = (name: string) =>
      attributesOf(inTrace().find((s) => s.name === name) as OtlpSpan);
    // The second chunk was coalesced with the first one's tail, read back from Redis.
    expect(byName('context.coalesce')).toMatchObject({ 'coalesce.outcome': 'ok' });
    expect(byName('context.coalesce')['coalesce.tail_words']).toBeGreaterThan(0);
    expect(byName('retrieval.hybrid_search')['retrieval.dense_hits']).toBeGreaterThan(0);
    expect(byName('context.rerank')).toMatchObject({ 'rerank.outcome': 'ok' });
    expect(byName('context.live_lookup')).toMatchObject({ 'live.outcome': 'ok' });
    expect(byName('context.build')).toMatchObject({ 'context.partial': false });
    expect(typeof byName('embedding.query')['embedding.queue_wait_ms']).toBe('number');
    // Every span of the call belongs to it: no stray root spans for its work.
    expect(inTrace().filter((s) => s.parentSpanId === undefined)).toEqual([]);
  });

  it('traces Redis (and Postgres, on the server engine) inside the request', () => {
    const scopes = new Set(inTrace().map((s) => s.scope));
    expect(scopes).toContain('@opentelemetry/instrumentation-ioredis');
    expect(scopes).toContain('@fastify/otel');
    if (TEST_ENGINE === 'postgres') {
      expect(scopes).toContain('@opentelemetry/instrumentation-pg');
    }
  });

  it('exports no trace of the e-mail address or the phone number, in any span', () => {
    expect(collector.bodies.length).toBeGreaterThan(0);
    expect(collector.bodies.flatMap(leaked)).toEqual([]);
  });

  it('puts the trace id on every log line of the request, and no PII on any line', () => {
    const lines = server.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
    const ofRequest = lines.filter((line) => line.request_id === contextRequestId);
    expect(ofRequest.length).toBeGreaterThan(0);
    expect(ofRequest.filter((line) => line.trace_id !== TRACE_ID)).toEqual([]);
    expect([...server.stdout, ...server.stderr].flatMap(leaked)).toEqual([]);
  });
});
