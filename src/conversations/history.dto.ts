import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';

import { uidProperty } from '../common/api-docs';
import { IsUid } from '../common/validators';
import { ERASURE_STORES } from '../relational/erasure-receipts';

export class ContactHistoryParams {
  @ApiProperty(uidProperty('The contact whose history is forgotten.'))
  @IsUid()
  contact_uid!: string;
}

/** `POST /contacts/forget`: the id in the body, so it never sits in a logged URL. */
export class ForgetContactBody extends ContactHistoryParams {}

export class ReceiptParams {
  @ApiProperty({ format: 'uuid', description: 'The `receipt_id` a forget answered with.' })
  @IsUUID()
  receipt_id!: string;
}

/** What a forget removed. */
export class ForgetHistoryResponse {
  @ApiProperty()
  contact_uid!: string;

  @ApiProperty({
    format: 'uuid',
    description:
      'The deletion receipt: `GET /contacts/forget/receipts/{receipt_id}` shows when each derived store was cleared.',
  })
  receipt_id!: string;

  @ApiProperty({
    type: [String],
    nullable: true,
    description: 'The locations it was forgotten in (the key’s); null: every location.',
  })
  location_uids!: string[] | null;

  @ApiProperty({ description: 'Conversations that lost messages.' })
  conversations!: number;

  @ApiProperty({
    description: 'Conversation windows removed from the vector store before the answer.',
  })
  windows_removed!: number;

  @ApiProperty({
    description:
      'True when a large history is still being deleted in the background: none of it is returned by any route meanwhile, and the deletion resumes after a restart.',
  })
  pending!: boolean;
}

export class ReceiptStoreDto {
  @ApiProperty({ enum: ERASURE_STORES })
  store!: string;

  @ApiPropertyOptional({ format: 'date-time', nullable: true, description: 'Null: not yet.' })
  cleared_at!: string | null;

  @ApiProperty({ description: 'False: this deployment has no such store (nothing to clear).' })
  applies!: boolean;
}

/** A deletion receipt; it never names the contact. */
export class ErasureReceiptDto {
  @ApiProperty({ format: 'uuid' })
  receipt_id!: string;

  @ApiProperty({ type: [String], nullable: true })
  location_uids!: string[] | null;

  @ApiProperty({ format: 'date-time' })
  requested_at!: string;

  @ApiPropertyOptional({
    format: 'date-time',
    nullable: true,
    description: 'When every store was cleared; null while the deletion goes on.',
  })
  completed_at!: string | null;

  @ApiProperty({ type: [ReceiptStoreDto] })
  stores!: ReceiptStoreDto[];
}
