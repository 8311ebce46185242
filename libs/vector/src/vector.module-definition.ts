import { ConfigurableModuleBuilder } from '@nestjs/common';

import { type CollectionName } from './interfaces/vector-store.interface';

export interface VectorModuleOptions {
  provider: 'pgvector' | 'qdrant';
  qdrantUrl?: string;
  qdrantApiKey?: string;
  /** Per Qdrant request, and the most start-up waits for Qdrant (default 5000). */
  qdrantTimeoutMs?: number;
  /** Qdrant collection names (defaults: podium_conversations, source_chunks, topic_summaries). */
  qdrantCollections?: Record<CollectionName, string>;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: VECTOR_OPTIONS } =
  new ConfigurableModuleBuilder<VectorModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();
