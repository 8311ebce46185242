/** What every embedding provider declares about itself. */
export interface EmbeddingModelInfo {
  provider: 'local' | 'openai' | 'tei';
  model: string;
  dimension: number;
  /**
   * Default cosine threshold above which a hit counts as relevant for this model. Cosine
   * scales differ per model (USE-lite clusters lower than OpenAI's), so one global 0.70 is
   * wrong for all but the model the R42 spec calibrated it on.
   */
  defaultThreshold: number;
}

/**
 * Which queue a request waits in where the provider queues: `/context`'s queries first, then
 * other live queries, then bulk work.
 */
export type EmbeddingLane = 'context' | 'query' | 'bulk';

/** The port: turns non-empty texts into vectors, in input order. */
export interface EmbeddingProvider {
  /** Loads models or probes the server; resolves with what the model produces. */
  init(): Promise<EmbeddingModelInfo>;
  /** `lane` matters to providers that queue locally; remote ones may ignore it. */
  embedBatch(texts: string[], signal?: AbortSignal, lane?: EmbeddingLane): Promise<number[][]>;
  close(): Promise<void>;
}

export const EMBEDDING_PROVIDER = 'EMBEDDING_PROVIDER';
