import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

import { uidProperty } from '../common/api-docs';
import { IsUid, NullAsOmitted } from '../common/validators';
import { type BundleContact } from '../context/context.dto';

/** Which call: the same fields `/context` chunks of it carry. */
export class CallRefDto {
  @ApiProperty(uidProperty('The call; its /context chunks carry the same call_id.'))
  @IsUid()
  call_id!: string;

  @ApiPropertyOptional(uidProperty('The caller (the contact).'))
  @IsOptional()
  @IsUid()
  contact_uid?: string;

  @ApiPropertyOptional(uidProperty('Restrict to this location (one of a bound key’s own).'))
  @NullAsOmitted()
  @IsOptional()
  @IsUid()
  location_uid?: string;
}

/** `POST /calls`: the call is ringing. */
export class CallStartDto extends CallRefDto {
  @ApiProperty(uidProperty('The caller (the contact).'))
  @IsUid()
  declare contact_uid: string;

  @ApiPropertyOptional({ minimum: 50, maximum: 5000, description: 'Deadline (default 300).' })
  @IsOptional()
  @IsInt()
  @Min(50)
  @Max(5000)
  timeout_ms?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: 20, description: 'Recent messages (default 5).' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(20)
  max_messages?: number;
}

/** One of the contact's most recent stored messages, redacted. */
export class RecentMessage {
  @ApiProperty({ example: 'sms' })
  channel!: string;

  @ApiProperty({ format: 'date-time' })
  occurred_at!: string;

  @ApiProperty({ example: 'customer' })
  sender!: string;

  @ApiProperty({ description: 'PII redacted.' })
  content!: string;
}

export class CallOpeningMeta {
  @ApiProperty()
  elapsed_ms!: number;

  @ApiProperty()
  timeout_ms!: number;

  @ApiProperty({ description: 'The live lookup or the recent messages missed the deadline.' })
  partial!: boolean;

  @ApiProperty({ description: 'The call ends (its turns join history) after this long idle.' })
  idle_timeout_ms!: number;
}

/** The opening bundle: who is calling and what they last talked about. */
export class CallOpening {
  @ApiProperty()
  call_id!: string;

  @ApiProperty({ description: 'Live CRM fields, as in a /context bundle.' })
  contact!: BundleContact;

  @ApiProperty({ type: [RecentMessage], description: 'Newest first.' })
  recent_messages!: RecentMessage[];

  @ApiProperty({ type: CallOpeningMeta })
  meta!: CallOpeningMeta;
}

/** `POST /calls/end`. */
export class CallEnded {
  @ApiProperty({ description: 'False when no such live call was tracked (already ended).' })
  ended!: boolean;

  @ApiProperty({ description: 'Final turns handed to the contact’s history.' })
  joined_turns!: number;
}
