import { NodeSDK } from '@opentelemetry/sdk-node';

import { type AppConfig } from '../config/app-config';
import { uninstrument } from './instrumentations';
import { scrubExportedSpans } from './span-scrubbing';
import { telemetryIds } from './telemetry-ids';

/*
 * Tracing has two steps because of an ordering constraint. Instrumentations patch `http`,
 * `pg` and `ioredis` as they are first required, so they must be registered before the app's
 * modules load; but whether tracing is on is known only from the validated config, whose
 * loading already requires those modules (through the libs' barrels). So `instrument()`
 * (`instrumentations.ts`) runs first, from `preload.ts`, main.ts's first import; then
 * `startTracing()` either starts the SDK or takes the patches off again: off costs nothing.
 */

let sdk: NodeSDK | undefined;

/**
 * With tracing on, starts the OpenTelemetry SDK: it reads the standard `OTEL_*` variables
 * (exporter, endpoint, protocol, headers, sampler, batching, propagators; W3C trace context
 * by default, so a caller's `traceparent` is continued). Traces only: metrics stay on
 * `/metrics`, logs in pino. Every span is scrubbed of contact ids on its way to the exporter
 * (`span-scrubbing.ts`). With tracing off, removes the patches `instrument()` made.
 */
export function startTracing(telemetry: AppConfig['telemetry']): void {
  if (!telemetry.enabled) {
    uninstrument();
    return;
  }
  sdk = new NodeSDK({
    serviceName: telemetry.serviceName,
    // Registered already by instrument(); the SDK's global tracer provider reaches them.
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  // Contact ids (in URLs, SQL literals, error text) leave as keyed hashes only.
  scrubExportedSpans(telemetryIds(telemetry.hashKey));
}

/** Flushes the spans still batched and stops exporting (at shutdown). */
export async function stopTracing(): Promise<void> {
  const running = sdk;
  sdk = undefined;
  await running?.shutdown();
}
