import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A contact of the embedded CRM (`PODIUM_PROVIDER=local`). */
@Entity('podium_contacts')
export class PodiumContactEntity {
  @PrimaryColumn('text', { name: 'contact_uid' }) contactUid!: string;
  @Column('text', { nullable: true }) name!: string | null;
  @Column('text', { nullable: true }) phone!: string | null;
  @Column('text', { nullable: true }) email!: string | null;
  @Column('boolean', { name: 'opt_out_sms', default: false }) optOutSms!: boolean;
  @Column('boolean', { name: 'opt_out_email', default: false }) optOutEmail!: boolean;
  @Column('text', { name: 'location_uid', nullable: true }) locationUid!: string | null;
  @Column('timestamptz', { name: 'last_seen_at', nullable: true }) lastSeenAt!: Date | null;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
}

/** A contact Podium deleted (`merged_into` NULL) or merged into another. */
@Entity('podium_contact_tombstones')
export class PodiumContactTombstoneEntity {
  @PrimaryColumn('text', { name: 'contact_uid' }) contactUid!: string;
  @Column('text', { name: 'merged_into', nullable: true }) mergedInto!: string | null;
  @Column('timestamptz', { name: 'recorded_at', default: () => 'now()' }) recordedAt!: Date;
  @Column('timestamptz', { name: 'event_at', default: () => 'now()' }) eventAt!: Date;
}

/** Podium's rotated refresh token, AES-256-GCM encrypted. */
@Entity('podium_credentials')
export class PodiumCredentialEntity {
  @PrimaryColumn('text') name!: string;
  @Column('text', { name: 'seed_sha256' }) seedSha256!: string;
  @Column('text') ciphertext!: string;
  @Column('timestamptz', { name: 'updated_at', default: () => 'now()' }) updatedAt!: Date;
}

/** The durable webhook inbox: one row per delivered event, leased by one replica at a time. */
@Entity('podium_webhook_events')
export class PodiumWebhookEventEntity {
  @PrimaryColumn('text', { name: 'event_id' }) eventId!: string;
  @Column('text') type!: string;
  @Column('jsonb', { nullable: true }) payload!: Record<string, unknown> | null;
  @Column('timestamptz', { name: 'received_at', default: () => 'now()' }) receivedAt!: Date;
  @Column('int', { default: 0 }) attempts!: number;
  @Column('timestamptz', { name: 'next_attempt_at', default: () => 'now()' }) nextAttemptAt!: Date;
  @Column('timestamptz', { name: 'locked_until', nullable: true }) lockedUntil!: Date | null;
  @Column('timestamptz', { name: 'processed_at', nullable: true }) processedAt!: Date | null;
  @Column('timestamptz', { name: 'failed_at', nullable: true }) failedAt!: Date | null;
  @Column('text', { name: 'last_error', nullable: true }) lastError!: string | null;
  @Column('text', { name: 'lease_token', nullable: true }) leaseToken!: string | null;
  @Column('int', { name: 'lease_owner', nullable: true }) leaseOwner!: number | null;
}
