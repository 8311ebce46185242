import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
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
} from 'class-validator';

import { ContextRequestDto, HistoricalExcerpt } from './context.dto';

class BundleExcerptDto {
  @ApiProperty({ maxLength: 20000 })
  @IsString()
  @MaxLength(20000)
  content!: string;

  @ApiProperty()
  @IsNumber()
  rerank_score!: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  channel?: string;

  @ApiPropertyOptional({ format: 'date-time' })
  @IsOptional()
  @IsString()
  occurred_at?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  id?: string;

  @ApiPropertyOptional()
  @IsOptional()
  @IsNumber()
  vector_score?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsBoolean()
  truncated?: boolean;
}

/** A bundle the caller already holds (the spec's `--bundle-file`). */
class GivenBundleDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The contact block of a /context bundle.',
  })
  @IsObject()
  contact!: Record<string, unknown>;

  @ApiProperty({ type: [BundleExcerptDto], maxItems: 100 })
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
  @ApiPropertyOptional({
    type: GivenBundleDto,
    description: 'A bundle from an earlier /context call; without it, one is fetched.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => GivenBundleDto)
  bundle?: GivenBundleDto;

  @ApiPropertyOptional({ maxLength: 8000, description: 'Replaces the default system prompt.' })
  @IsOptional()
  @IsString()
  @Matches(/\S/)
  @MaxLength(8000)
  system_prompt?: string;

  /** Budget for the whole prompt (system + user). */
  @ApiPropertyOptional({ minimum: 64, maximum: 200000, default: 4000 })
  @IsOptional()
  @IsInt()
  @Min(64)
  @Max(200000)
  prompt_max_tokens?: number;
}

class PromptBlockDto {
  @ApiProperty({ enum: ['SYSTEM', 'LIVE CONTACT', 'HISTORICAL CONTEXT', 'TRANSCRIPT TURN'] })
  name!: string;

  @ApiProperty()
  text!: string;

  @ApiProperty()
  tokens!: number;

  @ApiProperty()
  truncated!: boolean;
}

/** The answer of `POST /context/prompt` (documentation of `BuiltPrompt<HistoricalExcerpt>`). */
export class ContextPromptResponseDto {
  @ApiProperty()
  system!: string;

  @ApiProperty({ description: 'LIVE CONTACT, HISTORICAL CONTEXT and TRANSCRIPT TURN.' })
  user!: string;

  @ApiProperty({ type: [PromptBlockDto] })
  blocks!: PromptBlockDto[];

  @ApiProperty({ description: 'Exact tokens of system + user, ≤ prompt_max_tokens.' })
  token_count!: number;

  @ApiProperty({ type: [HistoricalExcerpt] })
  excerpts!: HistoricalExcerpt[];

  @ApiProperty()
  dropped_excerpts!: number;
}
