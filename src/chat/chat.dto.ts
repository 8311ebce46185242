import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';

import { uidProperty } from '../common/api-docs';
import { IsText, IsUid } from '../common/validators';

/** Longest question accepted; a question longer than this is not a question. */
export const MAX_QUERY_CHARS = 2000;
/** Turns of client-held history passed through (the spec's "last N messages"). */
export const MAX_HISTORY_TURNS = 20;

/** One earlier turn, held by the employee app (the service stores nothing). */
export class ChatTurnDto {
  @ApiProperty({ enum: ['user', 'assistant'] })
  @IsIn(['user', 'assistant'])
  role!: 'user' | 'assistant';

  @ApiProperty({ maxLength: 4000 })
  @IsText(4000)
  content!: string;
}

/** `POST /chat`: the R42 spec's `{ query, userId }`, plus optional client-held history. */
export class ChatRequestDto {
  /** Too-short questions get the spec's `query_too_short`, not a generic validation error. */
  @ApiProperty({ minLength: 1, maxLength: MAX_QUERY_CHARS })
  @IsString()
  @MaxLength(MAX_QUERY_CHARS)
  query!: string;

  @ApiProperty(uidProperty('The employee; with CHAT_AUTH=jwt it must equal the token sub.'))
  @IsUid()
  userId!: string;

  @ApiPropertyOptional({ type: [ChatTurnDto], maxItems: MAX_HISTORY_TURNS })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_HISTORY_TURNS)
  @ValidateNested({ each: true })
  @Type(() => ChatTurnDto)
  history?: ChatTurnDto[];
}
