import { FastifyOtelInstrumentation } from '@fastify/otel';
import { type Instrumentation, registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';

/** Probes and scrapes: polled every few seconds, a trace each would bury the real ones. */
const QUIET_PATHS = /^\/(health|metrics)(\/|\?|$)/;

/**
 * Client identity the HTTP instrumentation records by default. Our access log keeps only
 * method, URL and request id; spans keep the same (an undefined attribute is dropped).
 */
const NO_CLIENT_IDENTITY = {
  'client.address': undefined,
  'network.peer.address': undefined,
  'network.peer.port': undefined,
  'user_agent.original': undefined,
};

/**
 * The instrumentations of the libraries we trace, each set up so that no customer text
 * reaches a span: SQL is sent with parameters and only its text is recorded (never the
 * values: `enhancedDatabaseReporting` stays off); Redis spans name the command only (the
 * coalescer's values and script arguments are transcript words); HTTP spans carry no client
 * address or user agent.
 */
export function createInstrumentations(): Instrumentation[] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => QUIET_PATHS.test(request.url ?? ''),
      // Outgoing calls (Podium, model APIs) are traced inside a request or a worker span only.
      requireParentforOutgoingSpans: true,
      startIncomingSpanHook: () => NO_CLIENT_IDENTITY,
    }),
    // Registers itself on every Fastify instance as it is created (diagnostics channel).
    // Route spans only: a span per lifecycle hook costs more than it tells.
    new FastifyOtelInstrumentation({
      registerOnInitialization: true,
      instrumentHooks: false,
      ignorePaths: (route: { url: string }) => QUIET_PATHS.test(route.url),
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
