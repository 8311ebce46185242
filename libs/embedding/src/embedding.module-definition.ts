import { availableParallelism } from 'node:os';

import { configurableRootModule } from '@app/common';

/** The embedders `EMBEDDING_PROVIDER` accepts. */
export const EMBEDDING_PROVIDERS = ['local', 'openai', 'tei'] as const;

export interface EmbeddingModuleOptions {
  provider: (typeof EMBEDDING_PROVIDERS)[number];
  model?: string;
  /** Needed only for models whose dimension is not known in advance. */
  dimension?: number;
  /** Worker threads for the local model. */
  workers?: number;
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
} satisfies Partial<EmbeddingModuleOptions>;

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: EMBEDDING_OPTIONS } =
  configurableRootModule<EmbeddingModuleOptions>();
