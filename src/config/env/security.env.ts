import { Transform } from 'class-transformer';
import { IsOptional, IsString, MinLength } from 'class-validator';

import { emptyAsUndefined, EnvBoolean, EnvInt, EnvOneOf, EnvUrl } from './decorators';

export const CHAT_AUTH_MODES = ['none', 'jwt'] as const;

/**
 * Who may call: API keys (hashed), chat identity, CORS, rate and concurrency limits.
 * Values that need parsing (key lists, origins, proxies) are checked in `security-config.ts`.
 */
export class SecurityEnv {
  /** Comma list of `name:sha256hex` or `name:sha256hex:locA|locB`. */
  @IsOptional()
  @IsString()
  API_KEYS?: string;

  /** A file with the same entries, one per line (`#` comments allowed); merged with API_KEYS. */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  @MinLength(1)
  API_KEYS_FILE?: string;

  /** `true`: GET /metrics needs an API key too (default: open, for in-cluster scrapers). */
  @EnvBoolean()
  METRICS_REQUIRE_KEY?: boolean;

  /** `none` trusts `userId` in the body (the R42 spec); `jwt` requires a token whose sub is it. */
  @EnvOneOf(CHAT_AUTH_MODES)
  CHAT_AUTH?: (typeof CHAT_AUTH_MODES)[number];

  /** HS256 shared secret; at least 32 characters (RFC 7518 §3.2: a key as long as the hash). */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  @MinLength(32)
  CHAT_JWT_SECRET?: string;

  /** JWKS endpoint of the identity provider (asymmetric tokens: RS*, PS*, ES*, EdDSA). */
  @EnvUrl()
  CHAT_JWKS_URL?: string;

  /** Expected `iss`, when set. */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  CHAT_JWT_ISSUER?: string;

  /** Expected `aud` (comma list: any one of them), when set. */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  CHAT_JWT_AUDIENCE?: string;

  /** Comma list of browser origins allowed to call the API (`*` for any); unset: no CORS. */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  CORS_ORIGINS?: string;

  /**
   * Which proxies to believe about the client IP (`X-Forwarded-For`): `false` (default),
   * a hop count (`true` is one hop), or a comma list of proxy addresses/CIDRs. Only entries
   * those proxies appended are read, never the client's own. Per-IP limits depend on it.
   */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  TRUST_PROXY?: string;

  /** Requests per minute per API key; 0 turns the limit off. */
  @EnvInt(0, 1_000_000)
  RATE_LIMIT_PER_KEY_PER_MINUTE?: number;

  /** Requests per minute per client IP for calls without a valid key; 0 turns it off. */
  @EnvInt(0, 1_000_000)
  RATE_LIMIT_PER_IP_PER_MINUTE?: number;

  /** Ingestion requests processed at once; more get 429 `ingest_busy` with Retry-After. */
  @EnvInt(1, 64)
  INGEST_MAX_INFLIGHT?: number;
}
