import { ConfigurationError, withDefaults } from '@app/common';
import { Database } from '@app/database';
import { type Provider } from '@nestjs/common';

import { VECTOR_STORE, type VectorStore } from './interfaces/vector-store.interface';
import { PgVectorStore } from './pgvector/pgvector.store';
import { QdrantStore } from './qdrant/qdrant.store';
import {
  DEFAULT_VECTOR_OPTIONS,
  VECTOR_OPTIONS,
  type VectorModuleOptions,
} from './vector.module-definition';

/** Picks the store implementation from config; exhaustive so a new provider must be handled. */
export function createVectorStore(options: VectorModuleOptions, database: Database): VectorStore {
  switch (options.provider) {
    case 'pgvector':
      return new PgVectorStore(database);
    case 'qdrant':
      if (!options.qdrantUrl) {
        throw new ConfigurationError('VECTOR_PROVIDER=qdrant needs QDRANT_URL.');
      }
      return new QdrantStore({
        url: options.qdrantUrl,
        apiKey: options.qdrantApiKey,
        timeoutMs: options.qdrantTimeoutMs ?? DEFAULT_VECTOR_OPTIONS.qdrantTimeoutMs,
        collections: withDefaults(
          DEFAULT_VECTOR_OPTIONS.qdrantCollections,
          options.qdrantCollections,
        ),
      });
  }
}

export const vectorStoreProvider: Provider = {
  provide: VECTOR_STORE,
  inject: [VECTOR_OPTIONS, Database],
  useFactory: createVectorStore,
};
