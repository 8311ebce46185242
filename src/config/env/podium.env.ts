import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min } from 'class-validator';

import { ContextEnv } from './context.env';
import { emptyAsUndefined, toOptionalNumber, url } from './transforms';

export const PODIUM_PROVIDERS = ['local', 'api'] as const;

/** The live CRM (Podium v4 or the embedded contacts table) and its webhooks. */
export class PodiumEnv extends ContextEnv {
  @IsOptional()
  @IsIn(PODIUM_PROVIDERS)
  PODIUM_PROVIDER?: (typeof PODIUM_PROVIDERS)[number];

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  PODIUM_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  PODIUM_TOKEN_URL?: string;

  @IsOptional()
  @IsString()
  PODIUM_CLIENT_ID?: string;

  @IsOptional()
  @IsString()
  PODIUM_CLIENT_SECRET?: string;

  @IsOptional()
  @IsString()
  PODIUM_REFRESH_TOKEN?: string;

  @IsOptional()
  @IsString()
  PODIUM_WEBHOOK_SECRET?: string;

  /** AES-256 key (64 hex chars or base64 of 32 bytes) for the stored rotated refresh token. */
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  PODIUM_TOKEN_ENCRYPTION_KEY?: string;

  /** How far a delivery's signed timestamp may be from our clock (replay window). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1000)
  @Max(86_400_000)
  PODIUM_WEBHOOK_TOLERANCE_MS?: number;

  /** Dead-lettered events keep their payload (customer text) this long; 0 drops it at once. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(0)
  @Max(8760)
  PODIUM_WEBHOOK_DEAD_LETTER_RETENTION_HOURS?: number;

  /** Sent as the `podium-version` header when set. */
  @IsOptional()
  @IsString()
  PODIUM_API_VERSION?: string;

  /** Live-contact cache TTL; 0 turns the cache off. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(0)
  @Max(3600000)
  PODIUM_CACHE_TTL_MS?: number;

  /** Consecutive failures that open the circuit breaker. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(1000)
  PODIUM_BREAKER_FAILURES?: number;

  /** How long an open breaker waits before a half-open probe. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(100)
  @Max(600000)
  PODIUM_BREAKER_COOLDOWN_MS?: number;
}
