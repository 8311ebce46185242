import { type Provider } from '@nestjs/common';

import {
  DEFAULT_EMBEDDING_OPTIONS,
  EMBEDDING_OPTIONS,
  type EmbeddingModuleOptions,
} from './embedding.module-definition';
import {
  EMBEDDING_PROVIDER,
  type EmbeddingProvider,
} from './interfaces/embedding-provider.interface';
import { LocalEmbeddingProvider } from './local/local-embedding.provider';
import { OpenAiEmbeddingProvider } from './openai/openai-embedding.provider';
import { TeiEmbeddingProvider } from './tei/tei-embedding.provider';

/** Picks the implementation from config; the switch is exhaustive so a new name must be handled. */
export function createEmbeddingProvider(options: EmbeddingModuleOptions): EmbeddingProvider {
  switch (options.provider) {
    case 'local':
      return new LocalEmbeddingProvider({
        workers: options.workers ?? DEFAULT_EMBEDDING_OPTIONS.workers,
        bulkBatching: options.bulkBatching ?? DEFAULT_EMBEDDING_OPTIONS.bulkBatching,
      });
    case 'openai':
      return new OpenAiEmbeddingProvider({
        apiKey: options.openaiApiKey ?? '',
        baseURL: options.openaiBaseUrl,
        model: options.model,
        dimension: options.dimension,
      });
    case 'tei':
      return new TeiEmbeddingProvider({
        url: options.teiUrl ?? '',
        model: options.model,
        dimension: options.dimension,
      });
  }
}

export const embeddingProvider: Provider = {
  provide: EMBEDDING_PROVIDER,
  inject: [EMBEDDING_OPTIONS],
  useFactory: createEmbeddingProvider,
};
