import { type DatabaseOptions } from '@app/database';
import { type EntityType } from '@app/redaction';
import { type CountryCode } from 'libphonenumber-js';

import { type ApiKeyEntry } from './api-key-entries';
import {
  type CURRICULUM_PROVIDERS,
  type EMBEDDING_PROVIDERS,
  type LLM_PROVIDERS,
  type LOG_LEVELS,
  type PODIUM_PROVIDERS,
  type RERANK_PROVIDERS,
  type VECTOR_PROVIDERS,
} from './env.schema';

export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/** How `POST /chat` learns who is asking. */
export type ChatAuthConfig =
  | { mode: 'none' }
  | {
      mode: 'jwt';
      /** HS256 shared secret; exactly one of `secret` and `jwksUrl` is set. */
      secret?: string;
      jwksUrl?: string;
      issuer?: string;
      audience?: string[];
    };

/**
 * Fastify's `trustProxy`: which hops may set the client IP through `X-Forwarded-For`. Never
 * `true` (every hop, so the client's own header): TRUST_PROXY=true is read as one hop.
 */
export type TrustProxy = false | number | string[];
export type VectorProviderName = (typeof VECTOR_PROVIDERS)[number];

/** The typed, nested configuration every module receives; built once from the env. */
export interface AppConfig {
  server: {
    port: number;
    env: 'development' | 'production' | 'test';
    logLevel: (typeof LOG_LEVELS)[number];
    trustProxy: TrustProxy;
  };
  storage: {
    vectorProvider: VectorProviderName;
    /** Embedded PGlite data dir; `memory://` keeps it in RAM (tests). */
    dataDir: string;
    databaseUrl?: string;
    /** Pool and limits for the server path (DATABASE_URL). */
    database: Required<
      Pick<DatabaseOptions, 'poolMax' | 'statementTimeoutMs' | 'connectTimeoutMs'>
    >;
    qdrantUrl?: string;
    qdrantApiKey?: string;
    qdrant: {
      timeoutMs: number;
      collections: { source_chunks: string; topic_summaries: string; conversations: string };
    };
    redisUrl?: string;
  };
  embedding: {
    provider: EmbeddingProviderName;
    model?: string;
    dimension?: number;
    workers: number;
    openaiApiKey?: string;
    openaiBaseUrl?: string;
    teiUrl?: string;
  };
  rerank: {
    provider: (typeof RERANK_PROVIDERS)[number];
    teiUrl?: string;
    cohereApiKey?: string;
    cohereBaseUrl?: string;
    cohereModel?: string;
    /** Ceiling on one rerank call (`RERANK_TIMEOUT_MS`); the provider's default when unset. */
    timeoutMs?: number;
  };
  podium: {
    provider: (typeof PODIUM_PROVIDERS)[number];
    baseUrl: string;
    tokenUrl: string;
    clientId?: string;
    clientSecret?: string;
    refreshToken?: string;
    /** Encrypts the rotated refresh token kept in the database; unset: memory only. */
    tokenEncryptionKey?: string;
    webhookSecret?: string;
    /** A delivery signed further than this from our clock is refused as a replay. */
    webhookToleranceMs: number;
    /** Dead-lettered events lose their payload after this long (0: at once). */
    deadLetterRetentionHours: number;
    apiVersion?: string;
    cacheTtlMs: number;
    breakerFailures: number;
    breakerCooldownMs: number;
  };
  context: {
    timeoutMs: number;
    maxTokens: number;
    poolK: number;
    finalK: number;
    maxInFlight: number;
    coalesceTailWords: number;
    coalesceTtlMs: number;
  };
  redaction: { entities: EntityType[]; phoneRegions: CountryCode[] };
  chat: {
    /** Unset: the embedding provider's calibrated default. */
    scoreThreshold?: number;
    themeBoost: number;
    companyName: string;
  };
  llm: {
    provider: (typeof LLM_PROVIDERS)[number];
    model?: string;
    maxTokens: number;
    timeoutMs: number;
    maxAnswerChars: number;
    anthropicApiKey?: string;
    anthropicBaseUrl?: string;
    openaiApiKey?: string;
    openaiBaseUrl?: string;
  };
  curriculum: {
    provider: (typeof CURRICULUM_PROVIDERS)[number];
    pocketbaseUrl?: string;
    pocketbaseAdminEmail?: string;
    pocketbaseAdminPassword?: string;
  };
  ingest: {
    maxRecords: number;
    /** Ingestion requests processed at once; more are refused with 429 `ingest_busy`. */
    maxInFlight: number;
  };
  history: {
    /** Messages older than this are purged hourly; undefined keeps history forever. */
    retentionDays?: number;
  };
  security: {
    /** Hashed keys; empty means the service runs open (refused when NODE_ENV=production). */
    apiKeys: ApiKeyEntry[];
    metricsRequireKey: boolean;
    chatAuth: ChatAuthConfig;
    /** Browser origins allowed by CORS (`*` for any); empty disables CORS. */
    corsOrigins: string[];
  };
  limits: {
    /** Requests per minute per API key; 0 is off. */
    perKeyPerMinute: number;
    /** Requests per minute per client IP, for calls without a valid key; 0 is off. */
    perIpPerMinute: number;
  };
  adapters: {
    /** Compared in constant time with Vapi's `X-Vapi-Secret`; unset: Vapi needs an API key. */
    vapiSecret?: string;
  };
  seedDemoData: boolean;
}

export const APP_CONFIG = 'APP_CONFIG';
