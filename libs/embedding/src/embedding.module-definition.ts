import { availableParallelism } from 'node:os';

import { configurableRootModule } from '@app/common';

/** The embedders `EMBEDDING_PROVIDER` accepts. */
export const EMBEDDING_PROVIDERS = ['local', 'openai', 'tei'] as const;

/**
 * How the local embedder batches bulk texts: `length` queues each call's texts shortest
 * first, so a batch (which pads every text to its longest) holds texts of similar length;
 * `arrival` keeps the caller's order (the behaviour before; kept to measure against).
 */
export const BULK_BATCHING = ['length', 'arrival'] as const;
export type BulkBatching = (typeof BULK_BATCHING)[number];

export interface EmbeddingModuleOptions {
  provider: (typeof EMBEDDING_PROVIDERS)[number];
  model?: string;
  /** Needed only for models whose dimension is not known in advance. */
  dimension?: number;
  /** Worker threads for the local model. */
  workers?: number;
  /** Bulk batching of the local model (default `length`). */
  bulkBatching?: BulkBatching;
  openaiApiKey?: string;
  openaiBaseUrl?: string;
  teiUrl?: string;
  /** Overrides the provider's declared relevance threshold. */
  threshold?: number;
  /** LRU size for query embeddings (0 disables the cache). */
  queryCacheSize?: number;
}

/** Every default of {@link EmbeddingModuleOptions}, applied by the lib. */
export const DEFAULT_EMBEDDING_OPTIONS = {
  // One per core, at most 4: embedding is most of a request's CPU, and a second worker on a
  // second core raised /context throughput (docs/benchmarks.md).
  workers: Math.min(4, Math.max(1, availableParallelism())),
  queryCacheSize: 2000,
  bulkBatching: 'length',
} satisfies Partial<EmbeddingModuleOptions>;

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: EMBEDDING_OPTIONS } =
  configurableRootModule<EmbeddingModuleOptions>();
