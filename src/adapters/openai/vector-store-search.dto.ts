import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
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

import { uidProperty } from '../../common/api-docs';
import { IsUid } from '../../common/validators';

export class VectorStorePathDto {
  @ApiProperty(uidProperty('The contact whose history is searched (the "vector store").'))
  @IsUid()
  contact_uid!: string;
}

export class RankingOptionsDto {
  @ApiPropertyOptional({ enum: ['none', 'auto', 'default-2024-11-15'], description: 'Ignored.' })
  @IsOptional()
  @IsIn(['none', 'auto', 'default-2024-11-15'])
  ranker?: string;

  @ApiPropertyOptional({ description: 'Results scoring below this are dropped.' })
  @IsOptional()
  @IsNumber()
  score_threshold?: number;
}

/** OpenAI's `VectorStoreSearchParams`; `filters` is checked by `toLocationFilter`. */
export class VectorStoreSearchRequestDto {
  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    description: 'The live transcript chunk (several strings are joined).',
  })
  // `each` applies to both shapes: the string itself, or every element of the array.
  @IsString({ each: true })
  @Matches(/\S/, { each: true, message: 'query must not be blank' })
  @MaxLength(8000, { each: true })
  query!: string | string[];

  @ApiPropertyOptional({ minimum: 1, maximum: 50, default: 10 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  max_num_results?: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'Only `{type:"eq", key:"location_uid", value}` (optionally inside `{type:"and", filters}`).',
  })
  @IsOptional()
  @IsObject()
  filters?: Record<string, unknown>;

  @ApiPropertyOptional({ type: RankingOptionsDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => RankingOptionsDto)
  ranking_options?: RankingOptionsDto;

  @ApiPropertyOptional({ description: 'Accepted and ignored: the transcript is searched as is.' })
  @IsOptional()
  @IsBoolean()
  rewrite_query?: boolean;
}

class SearchResultTextDto {
  @ApiProperty({ enum: ['text'] })
  type!: 'text';

  @ApiProperty({ description: 'The conversation window, PII redacted.' })
  text!: string;
}

export class VectorStoreSearchResultDto {
  @ApiProperty({ description: 'The excerpt id.' })
  file_id!: string;

  @ApiProperty({ example: 'sms-2026-01-05T10:00:00.000Z.txt' })
  filename!: string;

  @ApiProperty({ description: 'The rerank score.' })
  score!: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'number' }] },
    description: '`channel`, `occurred_at`, `contact_uid`, `vector_score`.',
  })
  attributes!: Record<string, string | number | boolean>;

  @ApiProperty({ type: [SearchResultTextDto] })
  content!: SearchResultTextDto[];
}

export class VectorStoreSearchPageDto {
  @ApiProperty({ enum: ['vector_store.search_results.page'] })
  object!: 'vector_store.search_results.page';

  @ApiProperty({ type: [String] })
  search_query!: string[];

  @ApiProperty({ type: [VectorStoreSearchResultDto] })
  data!: VectorStoreSearchResultDto[];

  @ApiProperty({ description: 'Always false: one page holds every result.' })
  has_more!: boolean;

  @ApiProperty({ type: String, nullable: true })
  next_page!: string | null;
}
