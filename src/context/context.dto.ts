import { IsInt, IsOptional, Max, Min } from 'class-validator';

import { IsText, IsUid } from '../common/validators';

/** The spec's `context_fetch`: one live transcript chunk for one contact. */
export class ContextRequestDto {
  @IsText(8000)
  transcript!: string;

  @IsOptional()
  @IsUid()
  contact_uid?: string;

  /** The coalescing session: chunks of one call share a sliding window. */
  @IsOptional()
  @IsUid()
  call_id?: string;

  @IsOptional()
  @IsUid()
  location_uid?: string;

  @IsOptional()
  @IsInt()
  @Min(50)
  @Max(5000)
  timeout_ms?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  pool_k?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  final_k?: number;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(32000)
  max_tokens?: number;
}

/** The live contact as merged into the bundle: live fields, or why they are missing. */
export type BundleContact =
  | ({ live_fields_available: true } & Record<string, unknown>)
  | { live_fields_available: false; error?: number | 'timeout' | 'unavailable' | 'overloaded' };

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
    had_vector_hits: boolean;
    had_live_lookup: boolean;
    reranked: boolean;
    reranker: string;
    stages: Record<string, number>;
    redactions: Record<string, number>;
    dropped_excerpts: number;
  };
}
