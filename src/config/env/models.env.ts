import { BULK_BATCHING, EMBEDDING_PROVIDERS } from '@app/embedding';
import { RERANK_PROVIDERS } from '@app/rerank';
import { IsOptional, IsString, MinLength } from 'class-validator';

import { EnvInt, EnvOneOf, EnvUrl } from './decorators';

/** The embedding and reranking models. */
export class ModelsEnv {
  @EnvOneOf(EMBEDDING_PROVIDERS)
  EMBEDDING_PROVIDER?: (typeof EMBEDDING_PROVIDERS)[number];

  @IsOptional()
  @IsString()
  @MinLength(1)
  EMBEDDING_MODEL?: string;

  /** Only needed when a provider's model dimension is not known in advance (TEI, custom). */
  @EnvInt(1, 16000)
  EMBEDDING_DIMENSION?: number;

  /** Worker threads for the local embedder (default: CPU cores, at most 4). */
  @EnvInt(1, 16)
  EMBEDDING_WORKERS?: number;

  /** Bulk batching of the local embedder: `length` (default) or `arrival` (to measure against). */
  @EnvOneOf(BULK_BATCHING)
  EMBEDDING_BULK_BATCHING?: (typeof BULK_BATCHING)[number];

  @IsOptional()
  @IsString()
  OPENAI_API_KEY?: string;

  @EnvUrl()
  OPENAI_BASE_URL?: string;

  @EnvUrl()
  TEI_URL?: string;

  @EnvOneOf(RERANK_PROVIDERS)
  RERANK_PROVIDER?: (typeof RERANK_PROVIDERS)[number];

  /** Ceiling on one rerank call (the `llm` reranker's stage deadline; callers' own apply too). */
  @EnvInt(50, 60_000)
  RERANK_TIMEOUT_MS?: number;

  @EnvUrl()
  TEI_RERANK_URL?: string;

  @IsOptional()
  @IsString()
  COHERE_API_KEY?: string;

  @EnvUrl()
  COHERE_BASE_URL?: string;

  @IsOptional()
  @IsString()
  COHERE_RERANK_MODEL?: string;
}
