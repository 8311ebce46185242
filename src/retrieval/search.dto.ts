import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** The spec's `vector_query`. */
export class SearchRequestDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(8000)
  query!: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  contact_uid?: string;

  @IsOptional()
  @Type(() => Number)
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
