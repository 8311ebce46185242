/** Wire types of the bridge's HTTP API, kept free of server code so the client stands alone. */

export interface ContextRequest {
  transcript: string;
  contact_uid?: string;
  call_id?: string;
  location_uid?: string;
  /** The server's own deadline; the client sets it from `deadlineMs` when absent. */
  timeout_ms?: number;
  pool_k?: number;
  final_k?: number;
  max_tokens?: number;
}

export type BundleContact =
  | ({ live_fields_available: true } & Record<string, unknown>)
  | {
      live_fields_available: false;
      error?: number | 'timeout' | 'unavailable' | 'overloaded' | 'not_configured';
    };

export interface HistoricalExcerpt {
  id: string;
  content: string;
  channel: string;
  occurred_at: string;
  rerank_score: number;
  vector_score: number;
  truncated?: boolean;
}

export interface ContextBundle {
  contact: BundleContact;
  historical_excerpts: HistoricalExcerpt[];
  token_count: number;
  meta: {
    query: string;
    elapsed_ms: number;
    timeout_ms: number;
    partial: boolean;
    [key: string]: unknown;
  };
  /** Only when the request had `explain: true`. */
  explain?: ContextExplain;
}

/** One pool window of the explain mode, with every signal that scored it. */
export interface ExplainCandidate {
  id: string;
  conversation_uid: string;
  channel: string;
  occurred_at: string;
  dense_rank: number | null;
  cosine: number;
  bm25_rank: number | null;
  bm25_score: number | null;
  /** The reranker's score components (fusion's); null when it has none. */
  components: Record<string, number | null> | null;
  score: number;
  outcome: 'kept' | 'merged' | 'rank' | 'threshold' | 'budget';
  merged_into: string | null;
  in_bundle: boolean;
  /** Redacted like the excerpts; null when the deadline left no time. */
  content: string | null;
}

/** `explain: true` on `POST /context`: the pool, redactions per excerpt, a stage waterfall. */
export interface ContextExplain {
  reranker: string;
  reranked: boolean;
  pool_k: number;
  candidates: ExplainCandidate[];
  excerpts: Array<{
    id: string;
    window_ids: string[];
    redactions: Record<string, number>;
    kept: boolean;
  }>;
  stages: Array<{
    name: string;
    start_ms: number;
    ms: number;
    lane: 'main' | 'retrieval' | 'live';
  }>;
  partial: boolean;
}

export interface PromptRequest extends ContextRequest {
  system_prompt?: string;
  prompt_max_tokens?: number;
  /** A bundle fetched earlier: the server only builds the prompt. */
  bundle?: Pick<ContextBundle, 'contact' | 'historical_excerpts'>;
}

/** `POST /context/prompt`: a system and a user message, under the token budget. */
export interface BuiltPrompt {
  system: string;
  user: string;
  blocks: Array<{ name: string; text: string; [key: string]: unknown }>;
  token_count: number;
  excerpts: HistoricalExcerpt[];
  dropped_excerpts: number;
}

export interface ChatRequest {
  query: string;
  userId: string;
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
}

/** The SSE events of `POST /chat`, a union on `type`. */
export type ChatEvent =
  | { type: 'chunk'; text: string }
  | { type: 'citations'; topics: Array<{ id: string; title: string }> }
  | { type: 'out_of_scope'; text: string }
  | { type: 'error'; error: string; message: string }
  | { type: 'done' };
