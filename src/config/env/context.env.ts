import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';

import { ModelsEnv } from './models.env';
import { toOptionalNumber } from './transforms';

/** The context bridge pipeline (deadline, budgets, coalescing, redaction) and ingestion. */
export class ContextEnv extends ModelsEnv {
  /** The whole /context deadline in ms (the spec's 800). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(50)
  @Max(5000)
  CONTEXT_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(32000)
  CONTEXT_MAX_TOKENS?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(100)
  POOL_K?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(50)
  FINAL_K?: number;

  /** /context builds in flight before new ones wait (and are shed if they cannot start in time). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(1000)
  CONTEXT_MAX_INFLIGHT?: number;

  /** Words of the previous transcript chunk(s) carried into the next query. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(0)
  @Max(64)
  COALESCE_TAIL_WORDS?: number;

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1000)
  @Max(86400000)
  COALESCE_TTL_MS?: number;

  /** Comma list of entity types to redact (default: all). */
  @IsOptional()
  @IsString()
  REDACT_ENTITIES?: string;

  /** Comma list of ISO regions for phone detection (default: US). */
  @IsOptional()
  @IsString()
  REDACT_PHONE_REGIONS?: string;

  /** Skip seeding the demo data set into an empty embedded store. */
  @IsOptional()
  @IsIn(['true', 'false'])
  SEED_DEMO_DATA?: 'true' | 'false';

  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(10000)
  INGEST_MAX_RECORDS?: number;

  /** Conversation messages older than this many days are purged hourly; unset keeps all. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(36500)
  HISTORY_RETENTION_DAYS?: number;
}
