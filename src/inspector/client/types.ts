/** The shapes the inspector reads (mirrors of the API's DTOs: the client has no server code). */

export interface Candidate {
  id: string;
  conversation_uid: string;
  channel: string;
  occurred_at: string;
  dense_rank: number | null;
  cosine: number;
  bm25_rank: number | null;
  bm25_score: number | null;
  components: Record<string, number | null> | null;
  score: number;
  outcome: 'kept' | 'merged' | 'rank' | 'threshold' | 'budget';
  merged_into: string | null;
  in_bundle: boolean;
  content: string | null;
}

export interface Stage {
  name: string;
  start_ms: number;
  ms: number;
  lane: 'main' | 'retrieval' | 'live';
}

export interface Explain {
  reranker: string;
  reranked: boolean;
  pool_k: number;
  candidates: Candidate[];
  excerpts: Array<{
    id: string;
    window_ids: string[];
    redactions: Record<string, number>;
    kept: boolean;
  }>;
  stages: Stage[];
  partial: boolean;
}

export interface Excerpt {
  id: string;
  content: string;
  channel: string;
  occurred_at: string;
  rerank_score: number;
  vector_score: number;
  truncated?: boolean;
}

export interface Bundle {
  contact: Record<string, unknown> & { live_fields_available: boolean };
  historical_excerpts: Excerpt[];
  token_count: number;
  meta: {
    query: string;
    elapsed_ms: number;
    timeout_ms: number;
    partial: boolean;
    reranked: boolean;
    reranker: string;
    stages: Record<string, number>;
    redactions: Record<string, number>;
    dropped_excerpts: number;
  };
  explain?: Explain;
}

export interface ContactSummary {
  contact_uid: string;
  name: string | null;
  location_uid: string | null;
}
