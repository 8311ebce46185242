import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';

import { ServerEnv } from './server.env';
import { emptyAsUndefined, toOptionalNumber, url } from './transforms';

export const VECTOR_PROVIDERS = ['pgvector', 'qdrant'] as const;

/** Where data lives: embedded PGlite or Postgres, pgvector or Qdrant, and Redis. */
export class StorageEnv extends ServerEnv {
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  @MinLength(1)
  DATA_DIR?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl({ require_tld: false, protocols: ['postgres', 'postgresql'] })
  DATABASE_URL?: string;

  /** Server connections per process (DATABASE_URL only; PGlite is one session). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_MAX?: number;

  /** The server cancels a statement that runs longer (a runaway query cannot hold a connection). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(100)
  @Max(600000)
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  /** Longest wait for a server connection before a request fails with database_unavailable. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(100)
  @Max(120000)
  DATABASE_CONNECT_TIMEOUT_MS?: number;

  @IsOptional()
  @IsIn(VECTOR_PROVIDERS)
  VECTOR_PROVIDER?: (typeof VECTOR_PROVIDERS)[number];

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  QDRANT_URL?: string;

  @IsOptional()
  @IsString()
  QDRANT_API_KEY?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  QDRANT_COLLECTION_SOURCE_CHUNKS?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  QDRANT_COLLECTION_TOPIC_SUMMARIES?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  QDRANT_COLLECTION_CONVERSATIONS?: string;

  /** Per-request timeout towards Qdrant, and the most start-up waits for it. */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(100)
  @Max(120000)
  QDRANT_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl({ require_tld: false, protocols: ['redis', 'rediss'] })
  REDIS_URL?: string;
}
