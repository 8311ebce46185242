import { PODIUM_PROVIDERS } from '@app/podium';
import { Transform } from 'class-transformer';
import { IsOptional, IsString } from 'class-validator';

import { emptyAsUndefined, EnvInt, EnvOneOf, EnvUrl } from './decorators';

/** The live CRM (Podium v4 or the embedded contacts table) and its webhooks. */
export class PodiumEnv {
  @EnvOneOf(PODIUM_PROVIDERS)
  PODIUM_PROVIDER?: (typeof PODIUM_PROVIDERS)[number];

  @EnvUrl()
  PODIUM_BASE_URL?: string;

  @EnvUrl()
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
  @EnvInt(1000, 86_400_000)
  PODIUM_WEBHOOK_TOLERANCE_MS?: number;

  /** Dead-lettered events keep their payload (customer text) this long; 0 drops it at once. */
  @EnvInt(0, 8760)
  PODIUM_WEBHOOK_DEAD_LETTER_RETENTION_HOURS?: number;

  /** Sent as the `podium-version` header when set. */
  @IsOptional()
  @IsString()
  PODIUM_API_VERSION?: string;

  /** Live-contact cache TTL; 0 turns the cache off. */
  @EnvInt(0, 3600000)
  PODIUM_CACHE_TTL_MS?: number;

  /** Consecutive failures that open the circuit breaker. */
  @EnvInt(1, 1000)
  PODIUM_BREAKER_FAILURES?: number;

  /** How long an open breaker waits before a half-open probe. */
  @EnvInt(100, 600000)
  PODIUM_BREAKER_COOLDOWN_MS?: number;
}
