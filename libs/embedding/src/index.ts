export { EmbeddingModule } from './embedding.module';
export {
  BULK_BATCHING,
  type BulkBatching,
  DEFAULT_EMBEDDING_OPTIONS,
  EMBEDDING_PROVIDERS,
  type EmbeddingModuleOptions,
} from './embedding.module-definition';
export { createEmbeddingProvider } from './embedding.providers';
export { EmbeddingService } from './embedding.service';
export {
  EMBEDDING_PROVIDER,
  type EmbeddingModelInfo,
  type EmbeddingProvider,
} from './interfaces/embedding-provider.interface';
