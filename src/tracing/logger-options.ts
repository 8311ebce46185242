import { type Params } from 'nestjs-pino';

import { type AppConfig } from '../config/app-config';
import { type TelemetryIds, telemetryIds } from './telemetry-ids';
import { traceIds } from './trace-ids';

interface LoggedError {
  type?: unknown;
  name?: unknown;
  code?: unknown;
  message?: unknown;
  stack?: unknown;
  frames?: unknown;
}

const text = (ids: TelemetryIds, value: unknown) =>
  typeof value === 'string' ? ids.text(value) : undefined;

/** An error as logged: what it is and where it was thrown; contact ids in its text hashed. */
function errorSerializer(ids: TelemetryIds) {
  return (err: LoggedError | null | undefined) =>
    err && typeof err === 'object'
      ? {
          type: err.type ?? err.name ?? (err as object).constructor?.name,
          ...(err.code !== undefined ? { code: err.code } : {}),
          ...(err.frames !== undefined ? { frames: err.frames } : {}),
          ...(typeof err.message === 'string' ? { message: text(ids, err.message) } : {}),
          ...(typeof err.stack === 'string' ? { stack: text(ids, err.stack) } : {}),
        }
      : err;
}

/**
 * The pino (nestjs-pino / pino-http) set-up: JSON lines with `request_id`, and `trace_id` /
 * `span_id` inside a trace. Contact ids never appear in clear: request URLs carry their keyed
 * hash (`TelemetryIds.url`), and any e-mail- or E.164-shaped text in a message or an error
 * becomes one too (the same hash the spans carry, so the two still meet).
 */
export function loggerOptions(config: AppConfig): Params {
  const ids = telemetryIds(config.telemetry.hashKey);
  return {
    pinoHttp: {
      level: config.server.logLevel,
      // Only method, url and id: headers carry credentials and bodies carry customer text.
      serializers: {
        req: (req: { id: string; method: string; url: string }) => ({
          id: req.id,
          method: req.method,
          url: ids.url(req.url),
        }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
        err: errorSerializer(ids),
      },
      hooks: {
        // Messages are our own sentences, but some quote a dependency's error text.
        logMethod(args, method) {
          method.apply(
            this,
            args.map((arg: unknown) => (typeof arg === 'string' ? ids.text(arg) : arg)) as [string],
          );
        },
      },
      customProps: (req) => ({ request_id: (req as { id?: string }).id }),
      // trace_id and span_id on every line logged inside a trace (none with tracing off).
      mixin: traceIds,
      autoLogging: { ignore: (req) => req.url?.startsWith('/health') ?? false },
    },
  };
}
