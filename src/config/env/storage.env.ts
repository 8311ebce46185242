import { VECTOR_PROVIDERS } from '@app/vector';
import { Transform } from 'class-transformer';
import { IsOptional, IsString, MinLength } from 'class-validator';

import { emptyAsUndefined, EnvBoolean, EnvInt, EnvOneOf, EnvUrl } from './decorators';

/** Where data lives: embedded PGlite or Postgres, pgvector or Qdrant, and Redis. */
export class StorageEnv {
  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsString()
  @MinLength(1)
  DATA_DIR?: string;

  @EnvUrl(['postgres', 'postgresql'])
  DATABASE_URL?: string;

  /**
   * Refuse to boot without DATABASE_URL. The Helm chart and the kustomize base set it where
   * `/data` is scratch and pods are several: a Secret missing the URL then fails the rollout,
   * instead of giving each pod an embedded store of its own that dies with it.
   */
  @EnvBoolean()
  REQUIRE_DATABASE_URL?: boolean;

  /** Server connections per process (DATABASE_URL only; PGlite is one session). */
  @EnvInt(1, 200)
  DATABASE_POOL_MAX?: number;

  /** The server cancels a statement that runs longer (a runaway query cannot hold a connection). */
  @EnvInt(100, 600000)
  DATABASE_STATEMENT_TIMEOUT_MS?: number;

  /** Longest wait for a server connection before a request fails with database_unavailable. */
  @EnvInt(100, 120000)
  DATABASE_CONNECT_TIMEOUT_MS?: number;

  /** Embedded PGlite's page cache (`shared_buffers`) in MB; its WASM memory never shrinks. */
  @EnvInt(8, 4096)
  PGLITE_SHARED_BUFFERS_MB?: number;

  /** Row-level security: the database keeps each statement to its caller's locations. */
  @EnvBoolean()
  DATABASE_ROW_SECURITY?: boolean;

  @EnvOneOf(VECTOR_PROVIDERS)
  VECTOR_PROVIDER?: (typeof VECTOR_PROVIDERS)[number];

  @EnvUrl()
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
  @EnvInt(100, 120000)
  QDRANT_TIMEOUT_MS?: number;

  @EnvUrl(['redis', 'rediss'])
  REDIS_URL?: string;
}
