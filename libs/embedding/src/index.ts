export { EmbeddingModule } from './embedding.module';
export { type EmbeddingModuleOptions } from './embedding.module-definition';
export { createEmbeddingProvider } from './embedding.providers';
export { EmbeddingService } from './embedding.service';
export {
  EMBEDDING_PROVIDER,
  type EmbeddingModelInfo,
  type EmbeddingProvider,
} from './interfaces/embedding-provider.interface';
