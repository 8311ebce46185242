import { type Attributes, type AttributeValue, type SpanStatus, trace } from '@opentelemetry/api';
import { type NodeSDK } from '@opentelemetry/sdk-node';

import { type TelemetryIds } from './telemetry-ids';

/** The SDK's types, through the package we depend on (`@opentelemetry/sdk-trace` is its own). */
export type SpanProcessor = NonNullable<
  NonNullable<ConstructorParameters<typeof NodeSDK>[0]>['spanProcessors']
>[number];
export type ReadableSpan = Parameters<SpanProcessor['onEnd']>[0];
type TimedEvent = ReadableSpan['events'][number];

/** Attributes that hold a URL, a path or a query (old and current semantic conventions). */
const URL_ATTRIBUTES = new Set([
  'url.full',
  'url.path',
  'url.query',
  'http.url',
  'http.target',
  'http.route',
]);
/** Attributes that hold SQL text: placeholders are kept, literals are not. */
const SQL_ATTRIBUTES = new Set(['db.statement', 'db.query.text']);
const SQL_LITERAL = /'(?:[^']|'')*'/g;
/** A status message that is a code or a class name (ours always are), not free text. */
const CODE_LIKE = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * A span as exported: its name, URL attributes, SQL literals and any e-mail- or
 * phone-shaped string replaced by keyed hashes; error text (status messages, exception
 * messages and stacks, which quote input: JSON.parse quotes the body, a Postgres duplicate-key
 * error the key) reduced to the error's type. Everything else is the span itself.
 */
export function scrubSpan(span: ReadableSpan, ids: TelemetryIds): ReadableSpan {
  return {
    name: span.name.includes('/') ? ids.url(span.name) : ids.text(span.name),
    kind: span.kind,
    spanContext: () => span.spanContext(),
    parentSpanContext: span.parentSpanContext,
    startTime: span.startTime,
    endTime: span.endTime,
    status: scrubStatus(span.status),
    attributes: scrubAttributes(span.attributes, ids),
    links: span.links.map((link) =>
      link.attributes ? { ...link, attributes: scrubAttributes(link.attributes, ids) } : link,
    ),
    events: span.events.map((event) => scrubEvent(event, ids)),
    duration: span.duration,
    ended: span.ended,
    resource: span.resource,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

function scrubStatus(status: SpanStatus): SpanStatus {
  return status.message === undefined || CODE_LIKE.test(status.message)
    ? status
    : { code: status.code };
}

function scrubEvent(event: TimedEvent, ids: TelemetryIds): TimedEvent {
  if (!event.attributes) {
    return event;
  }
  if (event.name !== 'exception') {
    return { ...event, attributes: scrubAttributes(event.attributes, ids) };
  }
  // The type says what failed; the message and the stack's first line may quote input.
  const type = event.attributes['exception.type'];
  return { ...event, attributes: type === undefined ? {} : { 'exception.type': type } };
}

function scrubAttributes(attributes: Attributes, ids: TelemetryIds): Attributes {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) {
    out[key] = scrubValue(key, value, ids);
  }
  return out;
}

function scrubValue(key: string, value: unknown, ids: TelemetryIds): AttributeValue {
  if (typeof value === 'string') {
    if (URL_ATTRIBUTES.has(key)) {
      return ids.url(value);
    }
    return ids.text(SQL_ATTRIBUTES.has(key) ? value.replace(SQL_LITERAL, "'?'") : value);
  }
  if (Array.isArray(value)) {
    return value.map((item) => scrubValue('', item, ids));
  }
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    // A map value (attributes may nest since OTLP's AnyValue): the same rules, all the way down.
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(k, v, ids)]));
  }
  return value;
}

/** Hands the processor it wraps (the SDK's batch exporter) a scrubbed copy of each span. */
export class ScrubbingSpanProcessor implements SpanProcessor {
  constructor(
    private readonly inner: SpanProcessor,
    private readonly ids: TelemetryIds,
  ) {}

  onStart(...args: Parameters<SpanProcessor['onStart']>): void {
    this.inner.onStart(...args);
  }

  onEnd(span: ReadableSpan): void {
    this.inner.onEnd(scrubSpan(span, this.ids));
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** The SDK tracer provider's processor list (`@opentelemetry/sdk-trace` 3.x internals). */
interface ProviderInternals {
  _activeSpanProcessor?: { _spanProcessors?: SpanProcessor[] };
}

/**
 * Wraps every span processor of the started SDK so no span leaves unscrubbed. The SDK builds
 * its exporters from the `OTEL_*` variables and offers no public hook in front of them, so
 * this reaches into the provider's processor list; if that list is not where it was, it
 * throws: the boot fails rather than export customer ids.
 */
export function scrubExportedSpans(ids: TelemetryIds): void {
  const global = trace.getTracerProvider() as { getDelegate?: () => unknown };
  const provider = (global.getDelegate?.() ?? global) as ProviderInternals;
  const processors = provider._activeSpanProcessor?._spanProcessors;
  if (!Array.isArray(processors)) {
    throw new Error(
      'tracing: cannot reach the OpenTelemetry SDK span processors to scrub ids; refusing to export',
    );
  }
  processors.forEach((processor, i) => {
    if (!(processor instanceof ScrubbingSpanProcessor)) {
      processors[i] = new ScrubbingSpanProcessor(processor, ids);
    }
  });
}
