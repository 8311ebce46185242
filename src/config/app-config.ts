import { type EMBEDDING_PROVIDERS, type LOG_LEVELS, type VECTOR_PROVIDERS } from './env.schema';

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
  chat: { scoreThreshold?: number };
  ingest: { maxRecords: number };
  seedDemoData: boolean;
}

export const APP_CONFIG = 'APP_CONFIG';
