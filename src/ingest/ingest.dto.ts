import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, Matches } from 'class-validator';

import { uidProperty } from '../common/api-docs';
import { IsLabel, IsReadableDate, IsText, IsUid, NullAsOmitted } from '../common/validators';

/** A conversation's channel (`sms`, `email`, `call`, `webchat`…). */
const CHANNEL_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;

/** One message of a past conversation, as exported from Podium. */
export class ConversationMessageDto {
  @ApiPropertyOptional(
    uidProperty(
      "Podium's message uid: the message's stable id, so a re-delivery or a later export stores it once. Without it, the id is a hash of conversation, time, sender and text.",
    ),
  )
  @IsOptional()
  @IsUid()
  message_uid?: string;

  @ApiProperty(uidProperty('Messages of one conversation are windowed together.'))
  @IsUid()
  conversation_uid!: string;

  @ApiProperty(uidProperty('The customer.'))
  @IsUid()
  contact_uid!: string;

  @ApiPropertyOptional(
    uidProperty('The tenant. Required (and must be one of its own) for a location-bound key.'),
  )
  @NullAsOmitted()
  @IsOptional()
  @IsUid()
  location_uid?: string;

  @ApiProperty({ maxLength: 32, example: 'sms' })
  @IsLabel(32)
  // Returned as is with every excerpt, unredacted: a word, never an address or a number.
  @Matches(CHANNEL_PATTERN, {
    message: 'channel must be a word such as sms, email or call (letters, digits, _ and -)',
  })
  channel!: string;

  @ApiProperty({ format: 'date-time', example: '2026-01-05T10:00:00Z' })
  @IsISO8601({ strict: true })
  // timestamptz holds years 4713 BC–294276 AD, but a year outside 1900–2999 is a data error.
  @Matches(/^(19|2\d)\d\d-/, { message: 'occurred_at must be a date between 1900 and 2999' })
  @IsReadableDate()
  occurred_at!: string;

  @ApiProperty({ maxLength: 64, example: 'customer' })
  @IsLabel(64)
  sender!: string;

  @ApiProperty({ maxLength: 20000, description: 'PII is redacted before storage.' })
  @IsText(20000)
  text!: string;
}

/** One knowledge-base topic for R42 chat. */
export class KbTopicDto {
  @ApiProperty(uidProperty('Re-ingesting a topic replaces its chunks.'))
  @IsUid()
  topic_id!: string;

  @ApiProperty({ maxLength: 300 })
  @IsLabel(300)
  title!: string;

  @ApiPropertyOptional({ maxLength: 128, description: 'Curriculum theme (boosted in its week).' })
  @IsOptional()
  @IsLabel(128)
  theme_id?: string;

  @ApiProperty({ maxLength: 4000 })
  @IsText(4000)
  summary!: string;

  @ApiProperty({ maxLength: 200000 })
  @IsText(200000)
  text!: string;
}

export class IngestFailure {
  @ApiProperty({ description: 'Position of the record in the body (0-based).' })
  index!: number;

  @ApiProperty()
  error!: string;
}

/** What every ingest reports. Counts of stored chunks, not of input records. */
export class IngestReport {
  @ApiProperty({ description: 'Input records.' })
  received!: number;

  @ApiProperty({ description: 'Chunks stored now.' })
  inserted!: number;

  @ApiProperty({ description: 'Chunks already stored (idempotent re-runs).' })
  skipped!: number;

  @ApiProperty({ type: [IngestFailure] })
  failed!: IngestFailure[];
}
