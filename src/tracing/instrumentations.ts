import { FastifyOtelInstrumentation } from '@fastify/otel';
import { type Instrumentation, registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/** Probes and scrapes: polled every few seconds, a trace each would bury the real ones. */
const QUIET_PATHS = /^\/(health|metrics)(\/|\?|$)/;

/**
 * The instrumentations of the libraries we trace, each set up so that no customer text
 * reaches a span: SQL is sent with parameters and only its text is recorded (never the
 * values: `enhancedDatabaseReporting` stays off); Redis spans name the command only (the
 * coalescer's values and script arguments are transcript words); the request's span carries
 * method, path, route and status: no client address or user agent.
 */
export function createInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      // The request's server span is Fastify's (below): it continues the caller's
      // `traceparent` and knows the route. A second one here cost ~1/6 of tracing's CPU.
      // (Ignoring them instead would suppress every span beneath.)
      disableIncomingRequestInstrumentation: true,
      // Outgoing calls (Podium, model APIs) are traced inside a request or a worker span only.
      requireParentforOutgoingSpans: true,
    }),
    // Registers itself on every Fastify instance as it is created (diagnostics channel).
    // One span per request: a span per lifecycle hook, or for Nest's one router handler,
    // costs more than it tells (the stages have spans of their own).
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      instrumentHooks: false,
      instrumentHandler: false,
      ignorePaths: (route: { url: string }) => QUIET_PATHS.test(route.url),
      requestHook: (span, request) =>
        span.updateName(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`),
    }),
    new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    new IORedisInstrumentation({
      requireParentSpan: true,
      dbStatementSerializer: (command) => command,
    }),
  ];
}

let registered: Instrumentation[] = [];

/**
 * Patches the traced libraries; inert until the SDK is started (they trace through the
 * global tracer provider). Must run before those libraries load. Idempotent.
 */
export function instrument(): void {
  if (registered.length === 0) {
    registered = createInstrumentations();
    registerInstrumentations({ instrumentations: registered });
  }
}

/** Takes the patches off again: tracing off costs nothing. */
export function uninstrument(): void {
  registered.forEach((instrumentation) => instrumentation.disable());
  registered = [];
}
