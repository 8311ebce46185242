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

import { IsText, IsUid } from '../common/validators';

/** Longest question accepted; a question longer than this is not a question. */
export const MAX_QUERY_CHARS = 2000;
/** Turns of client-held history passed through (the spec's "last N messages"). */
export const MAX_HISTORY_TURNS = 20;

/** One earlier turn, held by the employee app (the service stores nothing). */
export class ChatTurnDto {
  @IsIn(['user', 'assistant'])
  role!: 'user' | 'assistant';

  @IsText(4000)
  content!: string;
}

/** `POST /chat`: the R42 spec's `{ query, userId }`, plus optional client-held history. */
export class ChatRequestDto {
  /** Too-short questions get the spec's `query_too_short`, not a generic validation error. */
  @IsString()
  @MaxLength(MAX_QUERY_CHARS)
  query!: string;

  @IsUid()
  userId!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_HISTORY_TURNS)
  @ValidateNested({ each: true })
  @Type(() => ChatTurnDto)
  history?: ChatTurnDto[];
}
