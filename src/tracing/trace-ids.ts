import { isSpanContextValid, trace } from '@opentelemetry/api';

/** The W3C ids of the active span, as they appear in logs. */
export interface TraceIds {
  trace_id?: string;
  span_id?: string;
}

/**
 * The active span's ids, or nothing outside a trace (always nothing with tracing off). The
 * logger mixes them into every line, so a request's lines join its trace.
 */
export function traceIds(): TraceIds {
  const context = trace.getActiveSpan()?.spanContext();
  return context && isSpanContextValid(context)
    ? { trace_id: context.traceId, span_id: context.spanId }
    : {};
}
