/**
 * One retrieval candidate as the hybrid pool hands it to a reranker. The retrieval signals
 * are optional because a candidate may come from one list only, or from none at all (the
 * `/relevance` endpoint scores a bare `(query, text)` pair).
 */
export interface RerankCandidate {
  id: string;
  content: string;
  /**
   * Cosine similarity to the query: from the dense search, or computed by the store for a
   * lexical-only hit. When absent, fusion assumes the pool's lowest cosine.
   */
  denseScore?: number;
  /** 1-based rank in the dense result list (undefined = not in that list). */
  denseRank?: number;
  /** 1-based rank in the lexical (full-text) result list (undefined = not in that list). */
  lexicalRank?: number;
  /**
   * The lexical list's own score (BM25 on either store) when the candidate is in that list.
   * Only its size relative to the pool's best counts, so the scale of the engine does not.
   */
  lexicalScore?: number;
  /** ISO-8601 timestamp of the historical message window. */
  occurredAt?: string;
}

/** The provider names `RERANK_PROVIDER` accepts. */
export const RERANK_PROVIDERS = ['fusion', 'none', 'tei', 'cohere', 'llm'] as const;
export type RerankerName = (typeof RERANK_PROVIDERS)[number];

/** The port: scores `(query, candidate)` pairs so the pipeline can keep the best few. */
export interface Reranker {
  readonly name: RerankerName;
  /**
   * One score per candidate, in input order, higher = more relevant, each in [0, 1]. The
   * caller sorts (stably) and cuts; a reranker never drops or reorders the array itself.
   * Remote providers reject with `DependencyError('rerank_failed')` so the pipeline can fall
   * back to the vector order.
   */
  score(query: string, candidates: RerankCandidate[], signal?: AbortSignal): Promise<number[]>;
  /**
   * What each score is made of, in input order, for the explain mode (fusion: each
   * component of its formula). Optional: a remote model's score has no parts to show. Only
   * an explain request calls it, never the normal path.
   */
  components?(query: string, candidates: readonly RerankCandidate[]): ScoreComponents[];
}

/** Named parts of one score (null: the part does not apply to this pool). */
export type ScoreComponents = Readonly<Record<string, number | null>>;

export const RERANKER = 'RERANKER';
