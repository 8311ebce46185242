import { IsOptional, IsString, Matches, MinLength } from 'class-validator';

import { EnvBoolean, EnvInt, EnvNumber, EnvOneOf, EnvUrl } from './decorators';

export const OTLP_PROTOCOLS = ['http/protobuf', 'http/json', 'grpc'] as const;
export const TRACES_EXPORTERS = ['otlp', 'console', 'none'] as const;
export const TRACES_SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * OpenTelemetry traces. These are the specification's standard variables, and the
 * OpenTelemetry SDK reads them itself (with the other `OTEL_*` ones: headers, resource
 * attributes, batching, propagators); they are validated here so that a typo fails the boot
 * instead of silently exporting nowhere, and so the service knows whether tracing is on.
 */
export class TelemetryEnv {
  /** The standard kill switch: true leaves tracing off whatever else is set. */
  @EnvBoolean()
  OTEL_SDK_DISABLED?: boolean;

  /** Where spans go (a collector's OTLP base URL); tracing is off while no endpoint is set. */
  @EnvUrl()
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The traces endpoint itself (full URL, e.g. `…/v1/traces`), over the base one. */
  @EnvUrl()
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  @EnvOneOf(OTLP_PROTOCOLS)
  OTEL_EXPORTER_OTLP_PROTOCOL?: (typeof OTLP_PROTOCOLS)[number];

  @EnvOneOf(OTLP_PROTOCOLS)
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: (typeof OTLP_PROTOCOLS)[number];

  /** `otlp` (the default), `console` (spans on stdout, for a look) or `none` (off). */
  @EnvOneOf(TRACES_EXPORTERS)
  OTEL_TRACES_EXPORTER?: (typeof TRACES_EXPORTERS)[number];

  @IsOptional()
  @IsString()
  @Matches(/^\S+$/, { message: '$property must be a name without spaces' })
  OTEL_SERVICE_NAME?: string;

  @EnvOneOf(TRACES_SAMPLERS)
  OTEL_TRACES_SAMPLER?: (typeof TRACES_SAMPLERS)[number];

  /** The ratio of the `traceidratio` samplers, in [0, 1]. */
  @EnvNumber(0, 1)
  OTEL_TRACES_SAMPLER_ARG?: number;

  /**
   * The HMAC key of the hashes that stand for contact ids in logs and spans (ours, not an
   * OpenTelemetry variable). Unset: a random key per process, so hashes do not match across
   * restarts or replicas.
   */
  @IsOptional()
  @IsString()
  @MinLength(32)
  TELEMETRY_HASH_KEY?: string;

  /** /context calls slower than this (server ms) are logged with their stages; unset: none. */
  @EnvInt(1, 600_000)
  SLOW_CALL_LOG_MS?: number;
}
