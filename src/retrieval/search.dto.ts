import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

import { uidProperty } from '../common/api-docs';
import { IsText, IsUid, NullAsOmitted } from '../common/validators';

/** The spec's `vector_query`. */
export class SearchRequestDto {
  @ApiProperty({ description: 'What to look for, in plain words.', minLength: 1, maxLength: 8000 })
  @IsText(8000)
  query!: string;

  @ApiPropertyOptional(uidProperty('Only this contact’s history.'))
  @IsOptional()
  @IsUid()
  contact_uid?: string;

  @ApiPropertyOptional(
    uidProperty(
      'Only this location’s history. A location-bound API key is always limited to its own locations; naming another one is a 403.',
    ),
  )
  @NullAsOmitted()
  @IsOptional()
  @IsUid()
  location_uid?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 5 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  top_k: number = 5;
}

export class SearchHitDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ description: 'The conversation window, PII redacted.' })
  content!: string;

  @ApiProperty({ description: 'Cosine similarity to the query.' })
  score!: number;

  @ApiProperty()
  contact_uid!: string;

  @ApiProperty()
  conversation_uid!: string;

  @ApiProperty({ example: 'sms' })
  channel!: string;

  @ApiProperty({ format: 'date-time' })
  occurred_at!: string;
}

export class SearchResponseDto {
  @ApiProperty()
  query!: string;

  @ApiPropertyOptional()
  contact_uid?: string;

  @ApiProperty()
  top_k!: number;

  @ApiProperty({ type: [SearchHitDto] })
  hits!: SearchHitDto[];
}
