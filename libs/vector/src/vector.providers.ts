import { ConfigurationError } from '@app/common';
import { Database } from '@app/database';
import { type Provider } from '@nestjs/common';

import { VECTOR_STORE, type VectorStore } from './interfaces/vector-store.interface';
import { PgVectorStore } from './pgvector/pgvector.store';
import { VECTOR_OPTIONS, type VectorModuleOptions } from './vector.module-definition';

/** Picks the store implementation from config; exhaustive so a new provider must be handled. */
export function createVectorStore(options: VectorModuleOptions, database: Database): VectorStore {
  switch (options.provider) {
    case 'pgvector':
      return new PgVectorStore(database);
    case 'qdrant':
      throw new ConfigurationError(
        'VECTOR_PROVIDER=qdrant is not available in this build yet; use pgvector.',
      );
  }
}

export const vectorStoreProvider: Provider = {
  provide: VECTOR_STORE,
  inject: [VECTOR_OPTIONS, Database],
  useFactory: createVectorStore,
};
