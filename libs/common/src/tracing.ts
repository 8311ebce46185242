import {
  type Attributes,
  type Span,
  type SpanOptions,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';

/*
 * Span helpers over the OpenTelemetry API. Without a registered SDK (tracing off) the API
 * hands out non-recording spans and these cost a few allocations; attribute callbacks never
 * run then. House rule for every attribute: counts, scores, flags, ids, codes. Never
 * transcript, excerpt, query or message text, nor anything a customer typed.
 */

/** The tracer of the service's own spans (HTTP, database and Redis spans come from theirs). */
export const tracer = (): Tracer => trace.getTracer('context-bridge');

/** Span options, plus `requireParent`: no span (and no new trace) outside an existing one. */
export interface InSpanOptions extends SpanOptions {
  requireParent?: boolean;
}

/** What becomes span attributes once the work has settled; called only on a recording span. */
export type AttributesOf<T> = (result: T) => Attributes;

/** The error's stable code (`DomainError.code`) or class name: never its message. */
function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : ((error as Error | null)?.name ?? 'Error');
}

function fail(span: Span, error: unknown): void {
  if (span.isRecording()) {
    const type = errorType(error);
    // Messages can echo input; the type is enough to find the failure in the logs.
    span.setAttribute('error.type', type);
    span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  }
}

/**
 * Runs `work` inside a child span of the active one (so database, Redis and HTTP spans
 * nest under it), then adds `attributes(result)` and ends it. An error ends it with
 * `error.type` and rethrows. `options.root` starts a trace of its own (background work);
 * `options.requireParent` runs `work` untraced outside a trace (boot-time seeding, warm-up).
 */
export async function inSpan<T>(
  name: string,
  work: (span?: Span) => Promise<T>,
  attributes?: AttributesOf<T>,
  { requireParent, ...options }: InSpanOptions = {},
): Promise<T> {
  if (requireParent && !trace.getActiveSpan()) {
    return work();
  }
  return tracer().startActiveSpan(name, options, async (span) => {
    try {
      const result = await work(span);
      if (attributes && span.isRecording()) {
        span.setAttributes(attributes(result));
      }
      return result;
    } catch (error) {
      fail(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** {@link inSpan} for synchronous work (redaction, budgeting). */
export function inSpanSync<T>(name: string, work: () => T, attributes?: AttributesOf<T>): T {
  return tracer().startActiveSpan(name, (span) => {
    try {
      const result = work();
      if (attributes && span.isRecording()) {
        span.setAttributes(attributes(result));
      }
      return result;
    } catch (error) {
      fail(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The active span, if one is recording (so callers skip building attributes otherwise). */
export function recordingSpan(): Span | undefined {
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span : undefined;
}
