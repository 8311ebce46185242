import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * A conversation that lost messages (a forget, the retention sweep) and still needs its
 * windows rebuilt: listed by the statement that deleted them, so a crash never loses it.
 */
@Entity('history_rebuilds')
export class HistoryRebuildEntity {
  @PrimaryColumn('text', { name: 'contact_uid' }) contactUid!: string;
  @PrimaryColumn('text', { name: 'conversation_uid' }) conversationUid!: string;
  @Column('timestamptz', { name: 'listed_at', default: () => 'clock_timestamp()' }) listedAt!: Date;
}

/** What one forget cleared, store by store; the contact id is kept until it completes. */
@Entity('erasure_receipts')
export class ErasureReceiptEntity {
  @PrimaryColumn('uuid', { name: 'receipt_id' }) receiptId!: string;
  @Column('text', { name: 'contact_uid', nullable: true }) contactUid!: string | null;
  @Column('text', { name: 'location_uids', array: true, nullable: true })
  locationUids!: string[] | null;
  @Column('timestamptz', { name: 'requested_at', default: () => 'now()' }) requestedAt!: Date;
  @Column('jsonb', { default: () => "'{}'::jsonb" }) cleared!: Record<string, string>;
  @Column('timestamptz', { name: 'completed_at', nullable: true }) completedAt!: Date | null;
}

/** The key of the keyed hash a completed tombstone keeps instead of the contact id. */
@Entity('erasure_key')
export class ErasureKeyEntity {
  @PrimaryColumn('int') id!: number;
  @Column('text') key!: string;
}
