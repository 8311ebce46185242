import { configurableRootModule } from '@app/common';

import { type CollectionName } from './interfaces/vector-store.interface';

/** The backends `VECTOR_PROVIDER` accepts. */
export const VECTOR_PROVIDERS = ['pgvector', 'qdrant'] as const;

export interface VectorModuleOptions {
  provider: (typeof VECTOR_PROVIDERS)[number];
  qdrantUrl?: string;
  qdrantApiKey?: string;
  /** Per Qdrant request, and the most start-up waits for Qdrant. */
  qdrantTimeoutMs?: number;
  /** Qdrant collection names; a name left out keeps its default. */
  qdrantCollections?: Partial<Record<CollectionName, string>>;
}

/** Every default of {@link VectorModuleOptions}, applied by the lib. */
export const DEFAULT_VECTOR_OPTIONS = {
  qdrantTimeoutMs: 5000,
  qdrantCollections: {
    conversations: 'podium_conversations',
    source_chunks: 'source_chunks',
    topic_summaries: 'topic_summaries',
  },
} satisfies Partial<VectorModuleOptions>;

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: VECTOR_OPTIONS } =
  configurableRootModule<VectorModuleOptions>();
