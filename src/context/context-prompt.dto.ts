import { Type } from 'class-transformer';
import {
  IsArray,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  ValidateNested,
  ArrayMaxSize,
  IsBoolean,
} from 'class-validator';

import { ContextRequestDto } from './context.dto';

class BundleExcerptDto {
  @IsString()
  @MaxLength(20000)
  content!: string;

  @IsNumber()
  rerank_score!: number;

  @IsOptional()
  @IsString()
  channel?: string;

  @IsOptional()
  @IsString()
  occurred_at?: string;

  @IsOptional()
  @IsString()
  id?: string;

  @IsOptional()
  @IsNumber()
  vector_score?: number;

  @IsOptional()
  @IsBoolean()
  truncated?: boolean;
}

/** A bundle the caller already holds (the spec's `--bundle-file`). */
class GivenBundleDto {
  @IsObject()
  contact!: Record<string, unknown>;

  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => BundleExcerptDto)
  historical_excerpts!: BundleExcerptDto[];
}

/**
 * The spec's `transcript_to_llm`: the structured prompt for a transcript turn, from a given
 * bundle or by fetching one with the same fields as `POST /context`.
 */
export class ContextPromptRequestDto extends ContextRequestDto {
  @IsOptional()
  @ValidateNested()
  @Type(() => GivenBundleDto)
  bundle?: GivenBundleDto;

  @IsOptional()
  @IsString()
  @Matches(/\S/)
  @MaxLength(8000)
  system_prompt?: string;

  /** Budget for the whole prompt (system + user). */
  @IsOptional()
  @IsInt()
  @Min(64)
  @Max(200000)
  prompt_max_tokens?: number;
}
