import { ConfigurationError, DependencyError } from '@app/common';
import OpenAI from 'openai';

import {
  type EmbeddingModelInfo,
  type EmbeddingProvider,
} from '../interfaces/embedding-provider.interface';

/** Dimensions of OpenAI's published embedding models, so no probe call is needed at boot. */
const KNOWN_DIMENSIONS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

/** OpenAI accepts up to 2048 inputs per request; smaller slices keep retries cheap. */
const MAX_INPUTS_PER_REQUEST = 256;

export interface OpenAiEmbeddingOptions {
  apiKey: string;
  baseURL?: string;
  model?: string;
  dimension?: number;
  maxRetries?: number;
  timeoutMs?: number;
}

/**
 * OpenAI embeddings through the official SDK. The SDK owns retries with backoff on 429 and
 * 5xx (honouring `retry-after`); what is left after retries becomes `embedding_failed`.
 */
export class OpenAiEmbeddingProvider implements EmbeddingProvider {
  private readonly client: OpenAI;
  private readonly model: string;

  constructor(private readonly options: OpenAiEmbeddingOptions) {
    this.model = options.model ?? 'text-embedding-3-small';
    this.client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: options.baseURL,
      maxRetries: options.maxRetries ?? 3,
      timeout: options.timeoutMs ?? 30_000,
    });
  }

  init(): Promise<EmbeddingModelInfo> {
    const dimension = this.options.dimension ?? KNOWN_DIMENSIONS[this.model];
    if (!dimension) {
      return Promise.reject(
        new ConfigurationError(
          `Unknown dimension for OpenAI model "${this.model}": set EMBEDDING_DIMENSION.`,
        ),
      );
    }
    // 0.70 is the threshold the R42 spec calibrated on text-embedding-3-small.
    return Promise.resolve({
      provider: 'openai',
      model: this.model,
      dimension,
      defaultThreshold: 0.7,
    });
  }

  async embedBatch(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += MAX_INPUTS_PER_REQUEST) {
      const slice = texts.slice(i, i + MAX_INPUTS_PER_REQUEST);
      try {
        const response = await this.client.embeddings.create(
          { model: this.model, input: slice, dimensions: this.options.dimension },
          { signal },
        );
        const ordered = [...response.data].sort((a, b) => a.index - b.index);
        out.push(...ordered.map((d) => d.embedding));
      } catch (error) {
        const status =
          error instanceof OpenAI.APIError && error.status ? ` (HTTP ${error.status})` : '';
        throw new DependencyError('embedding_failed', `OpenAI embeddings request failed${status}.`);
      }
    }
    return out;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
