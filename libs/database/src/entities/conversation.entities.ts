import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One stored (redacted) message: the source of truth conversation windows are built from. */
@Entity('conversation_messages')
// The key is per location (migration 21): `message_id` with `coalesce(location_uid, '')`, an
// expression TypeORM cannot declare. `messageId` stays its row identity, so an entity read
// would merge two locations' rows of one id: product code reads raw rows.
@Index('conversation_messages_location_message', { synchronize: false })
export class ConversationMessageEntity {
  @PrimaryColumn('text', { name: 'message_id' }) messageId!: string;
  @Column('text', { name: 'turn_key' }) turnKey!: string;
  @Column('text', { name: 'conversation_uid' }) conversationUid!: string;
  @Column('text', { name: 'contact_uid' }) contactUid!: string;
  @Column('text', { name: 'location_uid', nullable: true }) locationUid!: string | null;
  @Column('text') channel!: string;
  @Column('timestamptz', { name: 'occurred_at' }) occurredAt!: Date;
  @Column('text') sender!: string;
  @Column('text') text!: string;
  @Column('timestamptz', { name: 'stored_at', default: () => 'now()' }) storedAt!: Date;
}

/** The ledger of windows derived from a conversation's messages. */
@Entity('conversation_windows')
export class ConversationWindowEntity {
  @PrimaryColumn('uuid', { name: 'window_id' }) windowId!: string;
  @Column('text', { name: 'contact_uid' }) contactUid!: string;
  @Column('text', { name: 'conversation_uid' }) conversationUid!: string;
}

/** A forget request; `location_uid` '' means every location. */
@Entity('history_tombstones')
export class HistoryTombstoneEntity {
  @PrimaryColumn('text', { name: 'contact_uid' }) contactUid!: string;
  @PrimaryColumn('text', { name: 'location_uid' }) locationUid!: string;
  @Column('timestamptz', { name: 'forgotten_at' }) forgottenAt!: Date;
  @Column('timestamptz', { name: 'purged_at', nullable: true }) purgedAt!: Date | null;
  @Column('timestamptz', { name: 'stored_before' }) storedBefore!: Date;
}

/** Windows of a contact older than `hidden_before` are hidden from every search leg. */
@Entity('podium_conversation_purges')
export class ConversationPurgeEntity {
  @PrimaryColumn('text', { name: 'contact_uid' }) contactUid!: string;
  @Column('timestamptz', { name: 'hidden_before' }) hiddenBefore!: Date;
}
