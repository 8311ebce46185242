import { ConfigurableModuleBuilder } from '@nestjs/common';

export interface EmbeddingModuleOptions {
  provider: 'local' | 'openai' | 'tei';
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

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: EMBEDDING_OPTIONS } =
  new ConfigurableModuleBuilder<EmbeddingModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();
