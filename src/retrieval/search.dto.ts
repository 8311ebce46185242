import { IsInt, IsOptional, Max, Min } from 'class-validator';

import { IsText, IsUid } from '../common/validators';

/** The spec's `vector_query`. */
export class SearchRequestDto {
  @IsText(8000)
  query!: string;

  @IsOptional()
  @IsUid()
  contact_uid?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  top_k: number = 5;
}

export interface SearchHitDto {
  id: string;
  content: string;
  score: number;
  contact_uid: string;
  conversation_uid: string;
  channel: string;
  occurred_at: string;
}

export interface SearchResponseDto {
  query: string;
  contact_uid?: string;
  top_k: number;
  hits: SearchHitDto[];
}
