export * from './interfaces/vector-store.interface';
export { PgVectorStore } from './pgvector/pgvector.store';
export { toVectorLiteral } from './pgvector/row-sql';
export { TABLES } from './pgvector/tables';
export { QdrantStore, type QdrantStoreOptions } from './qdrant/qdrant.store';
export { VectorModule } from './vector.module';
export {
  DEFAULT_VECTOR_OPTIONS,
  VECTOR_PROVIDERS,
  type VectorModuleOptions,
} from './vector.module-definition';
export { createVectorStore } from './vector.providers';
