import { SpanStatusCode, trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';

import {
  type ReadableSpan,
  ScrubbingSpanProcessor,
  scrubExportedSpans,
  type SpanProcessor,
} from './span-scrubbing';
import { TelemetryIds } from './telemetry-ids';

const EMAIL = 'jane.doe@example.com';
const PHONE = '+14155550134';
const LEAK = /jane|example\.com|4155550134/i;
const ids = new TelemetryIds('span-scrubbing-test-key-0123456789');

/** What the SDK's batch processor would export: the spans handed to `onEnd`, as given. */
class Recorder implements SpanProcessor {
  readonly spans: ReadableSpan[] = [];
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    this.spans.push(span);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Everything a span exports, as one string (what an OTLP body would hold). */
const exported = (span: ReadableSpan) =>
  JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    status: span.status,
    events: span.events,
    links: span.links,
  });

describe('span scrubbing on the started SDK', () => {
  const recorder = new Recorder();
  let sdk: NodeSDK;

  beforeAll(() => {
    sdk = new NodeSDK({
      serviceName: 'scrub-test',
      spanProcessors: [recorder],
      instrumentations: [],
      metricReaders: [],
      logRecordProcessors: [],
    });
    sdk.start();
    scrubExportedSpans(ids);
  });

  afterAll(() => sdk.shutdown());

  it('hands the exporter spans with no raw id: name, URLs, SQL, errors, events', () => {
    const span = trace.getTracer('test').startSpan(`GET /contacts/${encodeURIComponent(EMAIL)}`);
    span.setAttributes({
      'url.full': `https://api.podium.com/v4/contacts/${encodeURIComponent(PHONE)}?q=${encodeURIComponent(PHONE)}`,
      'url.path': `/v1/vector_stores/${encodeURIComponent(EMAIL)}/search`,
      'http.target': `/contacts/${encodeURIComponent(PHONE)}/history`,
      'db.statement': `CREATE INDEX x ON t WHERE contact_uid = '${EMAIL}'`,
      'custom.note': `reached ${EMAIL}`,
      'custom.list': [PHONE, 'plain'],
      'context.excerpts': 3,
    });
    span.addEvent('note', { who: EMAIL });
    span.recordException(new Error(`duplicate key (contact_uid)=(${EMAIL})`));
    span.setStatus({ code: SpanStatusCode.ERROR, message: `Unexpected token in "${EMAIL}"` });
    span.end();

    const [sut] = recorder.spans.splice(0);
    expect(exported(sut)).not.toMatch(LEAK);
    expect(sut.name).toBe(`GET /contacts/${ids.id(EMAIL)}`);
    expect(sut.attributes).toMatchObject({
      'url.full': `https://api.podium.com/v4/contacts/${ids.id(PHONE)}?q=${ids.id(PHONE)}`,
      'url.path': `/v1/vector_stores/${ids.id(EMAIL)}/search`,
      'http.target': `/contacts/${ids.id(PHONE)}/history`,
      'db.statement': "CREATE INDEX x ON t WHERE contact_uid = '?'",
      'custom.note': `reached ${ids.id(EMAIL)}`,
      'custom.list': [ids.id(PHONE), 'plain'],
      'context.excerpts': 3,
    });
    // The error keeps its type, the status its code; no message or stack.
    expect(sut.events.find((e) => e.name === 'exception')?.attributes).toEqual({
      'exception.type': 'Error',
    });
    expect(sut.status).toEqual({ code: SpanStatusCode.ERROR });
    // The rest of the span is the span: ids, timing, scope.
    expect(sut.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(sut.instrumentationScope.name).toBe('test');
    expect(sut.ended).toBe(true);
  });

  it('keeps what is safe as it is: route templates, codes, counts', () => {
    const span = trace.getTracer('test').startSpan('DELETE /contacts/:contact_uid/history');
    span.setAttributes({ 'http.route': '/contacts/:contact_uid/history', 'error.type': 'x_y' });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'validation_failed' });
    span.end();
    const [sut] = recorder.spans.splice(0);
    expect(sut.name).toBe('DELETE /contacts/:contact_uid/history');
    expect(sut.attributes).toEqual({
      'http.route': '/contacts/:contact_uid/history',
      'error.type': 'x_y',
    });
    expect(sut.status).toEqual({ code: SpanStatusCode.ERROR, message: 'validation_failed' });
  });

  it('wraps each processor once, however often it is called', () => {
    scrubExportedSpans(ids);
    const span = trace.getTracer('test').startSpan(`x ${EMAIL}`);
    span.end();
    expect(recorder.spans.splice(0).map((s) => s.name)).toEqual([`x ${ids.id(EMAIL)}`]);
  });
});

describe('ScrubbingSpanProcessor', () => {
  it('passes starts, flushes and shutdowns through to the processor it wraps', async () => {
    const inner = new Recorder();
    const calls: string[] = [];
    inner.onStart = () => void calls.push('start');
    inner.forceFlush = () => Promise.resolve(void calls.push('flush'));
    inner.shutdown = () => Promise.resolve(void calls.push('shutdown'));
    const sut = new ScrubbingSpanProcessor(inner, ids);
    sut.onStart(...([{}, {}] as unknown as Parameters<SpanProcessor['onStart']>));
    await sut.forceFlush();
    await sut.shutdown();
    expect(calls).toEqual(['start', 'flush', 'shutdown']);
  });
});
