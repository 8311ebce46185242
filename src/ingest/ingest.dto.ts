import { IsISO8601, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

import { IsText, IsUid } from '../common/validators';

/** One message of a past conversation, as exported from Podium. */
export class ConversationMessageDto {
  @IsUid()
  conversation_uid!: string;

  @IsUid()
  contact_uid!: string;

  @IsOptional()
  @IsUid()
  location_uid?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  channel!: string;

  @IsISO8601({ strict: true })
  // timestamptz holds years 4713 BC–294276 AD, but a year outside 1900–2999 is a data error.
  @Matches(/^(19|2\d)\d\d-/, { message: 'occurred_at must be a date between 1900 and 2999' })
  occurred_at!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  sender!: string;

  @IsText(20000)
  text!: string;
}

/** One knowledge-base topic for R42 chat. */
export class KbTopicDto {
  @IsUid()
  topic_id!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(300)
  title!: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  theme_id?: string;

  @IsText(4000)
  summary!: string;

  @IsText(200000)
  text!: string;
}

export interface IngestFailure {
  index: number;
  error: string;
}

/** What every ingest reports. Counts of stored chunks, not of input records. */
export interface IngestReport {
  received: number;
  inserted: number;
  skipped: number;
  failed: IngestFailure[];
}
