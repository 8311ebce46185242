import { type EntityType } from '@app/redaction';
import { type CountryCode } from 'libphonenumber-js';

import {
  type EMBEDDING_PROVIDERS,
  type LOG_LEVELS,
  type PODIUM_PROVIDERS,
  type RERANK_PROVIDERS,
  type VECTOR_PROVIDERS,
} from './env.schema';

export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];
export type VectorProviderName = (typeof VECTOR_PROVIDERS)[number];

/** The typed, nested configuration every module receives; built once from the env. */
export interface AppConfig {
  server: {
    port: number;
    env: 'development' | 'production' | 'test';
    logLevel: (typeof LOG_LEVELS)[number];
  };
  storage: {
    vectorProvider: VectorProviderName;
    /** Embedded PGlite data dir; `memory://` keeps it in RAM (tests). */
    dataDir: string;
    databaseUrl?: string;
    qdrantUrl?: string;
    qdrantApiKey?: string;
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
  };
  podium: { provider: (typeof PODIUM_PROVIDERS)[number] };
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
  chat: { scoreThreshold?: number };
  ingest: { maxRecords: number };
  seedDemoData: boolean;
}

export const APP_CONFIG = 'APP_CONFIG';
