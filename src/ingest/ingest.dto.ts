import { IsISO8601, IsNotEmpty, IsOptional, IsString, Matches, MaxLength } from 'class-validator';

const ID = /^[A-Za-z0-9._:@-]+$/;

/** One message of a past conversation, as exported from Podium. */
export class ConversationMessageDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  @Matches(ID)
  conversation_uid!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  @Matches(ID)
  contact_uid!: string;

  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  @Matches(ID)
  location_uid?: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(32)
  channel!: string;

  @IsISO8601({ strict: true })
  occurred_at!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(64)
  sender!: string;

  @IsString()
  @Matches(/\S/, { message: 'text must not be blank' })
  @MaxLength(20000)
  text!: string;
}

/** One knowledge-base topic for R42 chat. */
export class KbTopicDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  @Matches(ID)
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

  @IsString()
  @Matches(/\S/, { message: 'summary must not be blank' })
  @MaxLength(4000)
  summary!: string;

  @IsString()
  @Matches(/\S/, { message: 'text must not be blank' })
  @MaxLength(200000)
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
