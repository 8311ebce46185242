import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Max, Min, MinLength } from 'class-validator';

import { StorageEnv } from './storage.env';
import { emptyAsUndefined, toOptionalNumber, url } from './transforms';

export const EMBEDDING_PROVIDERS = ['local', 'openai', 'tei'] as const;
export const RERANK_PROVIDERS = ['fusion', 'none', 'tei', 'cohere', 'llm'] as const;

/** The embedding and reranking models. */
export class ModelsEnv extends StorageEnv {
  @IsOptional()
  @IsIn(EMBEDDING_PROVIDERS)
  EMBEDDING_PROVIDER?: (typeof EMBEDDING_PROVIDERS)[number];

  @IsOptional()
  @IsString()
  @MinLength(1)
  EMBEDDING_MODEL?: string;

  /** Only needed when a provider's model dimension is not known in advance (TEI, custom). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(16000)
  EMBEDDING_DIMENSION?: number;

  /** Worker threads for the local embedder (default: CPU cores, at most 4). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(1)
  @Max(16)
  EMBEDDING_WORKERS?: number;

  @IsOptional()
  @IsString()
  OPENAI_API_KEY?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  OPENAI_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  TEI_URL?: string;

  @IsOptional()
  @IsIn(RERANK_PROVIDERS)
  RERANK_PROVIDER?: (typeof RERANK_PROVIDERS)[number];

  /** Ceiling on one rerank call (the `llm` reranker's stage deadline; callers' own apply too). */
  @IsOptional()
  @Transform(toOptionalNumber)
  @IsInt()
  @Min(50)
  @Max(60_000)
  RERANK_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  TEI_RERANK_URL?: string;

  @IsOptional()
  @IsString()
  COHERE_API_KEY?: string;

  @IsOptional()
  @Transform(emptyAsUndefined)
  @IsUrl(url)
  COHERE_BASE_URL?: string;

  @IsOptional()
  @IsString()
  COHERE_RERANK_MODEL?: string;
}
