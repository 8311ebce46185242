import { randomUUID } from 'node:crypto';

import { Database, replicaGone } from '@app/database';
import { Injectable } from '@nestjs/common';

/** A pending event handed to the worker under a lease. */
export interface ClaimedEvent {
  event_id: string;
  type: string;
  /** The delivery's JSON body, untrusted until the processor maps it; null once dropped. */
  payload: Record<string, unknown> | null;
  /** Including the attempt now under way. */
  attempts: number;
  received_at: Date;
  /** Names the claim that holds the lease: only its holder may process or settle the event. */
  lease_token: string;
}

/** What identifies a held lease. */
export type Lease = Pick<ClaimedEvent, 'event_id' | 'lease_token'>;

const TABLE = 'podium_webhook_events';

/** Processed event ids are kept this long for dedupe: past Podium's ~10-day event queue. */
export const RETENTION_DAYS = 14;

/**
 * The durable inbox table (migration PodiumWebhookEvents1700000000002). Every statement
 * is a single round trip, and claiming uses `FOR UPDATE SKIP LOCKED` plus a lease, so
 * several replicas on one Postgres never process an event twice at the same time.
 */
@Injectable()
export class WebhookInbox {
  private opened = false;

  constructor(private readonly database: Database) {
    void database.whenOpen().then(() => (this.opened = true));
  }

  /** True once the schema is migrated; deliveries before that are refused with 503. */
  get ready(): boolean {
    return this.opened;
  }

  /** Resolves once the schema is migrated. */
  async whenReady(): Promise<void> {
    await this.database.whenOpen();
  }

  /** Stores a delivery; false when its event id is already known (a redelivery). */
  async insert(eventId: string, type: string, envelope: object): Promise<boolean> {
    const inserted = await this.database.execute(
      `INSERT INTO ${TABLE} (event_id, type, payload) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (event_id) DO NOTHING`,
      [eventId, type, JSON.stringify(envelope)],
    );
    return inserted === 1;
  }

  /**
   * Leases up to `limit` due events, oldest first, under a new token and this replica's id,
   * and counts the attempt. Due: never leased, lease run out, or leased by a replica that is
   * gone (its process died: its presence lock is free), so a crash does not hold its events
   * back for the rest of their lease.
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedEvent[]> {
    const rows = await this.database.query<ClaimedEvent>(
      `UPDATE ${TABLE} SET attempts = attempts + 1, lease_token = $3, lease_owner = $4,
         locked_until = now() + $2::int * interval '1 millisecond'
       WHERE event_id IN (
         SELECT event_id FROM ${TABLE}
         WHERE processed_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
           AND (locked_until IS NULL OR locked_until < now() OR ${replicaGone('lease_owner')})
         ORDER BY received_at, event_id LIMIT $1
         FOR UPDATE SKIP LOCKED)
       RETURNING event_id, type, payload, attempts, received_at, lease_token`,
      [limit, leaseMs, randomUUID(), this.database.replicaId],
    );
    return rows
      .map((r) => ({ ...r, received_at: new Date(r.received_at) }))
      .sort((a, b) => a.received_at.getTime() - b.received_at.getTime());
  }

  /**
   * Restarts the lease of one event just before it is processed, so the lease covers that
   * event's own work rather than the batch's queue. False when the lease is no longer ours:
   * it ran out while the event waited and another replica claimed (or finished) it.
   */
  async renew(lease: Lease, leaseMs: number): Promise<boolean> {
    const renewed = await this.database.execute(
      `UPDATE ${TABLE} SET locked_until = now() + $3::int * interval '1 millisecond'
       WHERE event_id = $1 AND lease_token = $2 AND processed_at IS NULL AND failed_at IS NULL`,
      [lease.event_id, lease.lease_token, leaseMs],
    );
    return renewed === 1;
  }

  /** Done: the payload (customer text) is dropped, the id stays for dedupe. */
  async markProcessed(lease: Lease): Promise<void> {
    await this.database.execute(
      `UPDATE ${TABLE} SET processed_at = now(), locked_until = NULL, payload = NULL,
         last_error = NULL WHERE event_id = $1 AND lease_token = $2`,
      [lease.event_id, lease.lease_token],
    );
  }

  async scheduleRetry(lease: Lease, error: string, delayMs: number): Promise<void> {
    await this.database.execute(
      `UPDATE ${TABLE} SET locked_until = NULL, last_error = $3,
         next_attempt_at = now() + $4::int * interval '1 millisecond'
       WHERE event_id = $1 AND lease_token = $2`,
      [lease.event_id, lease.lease_token, error, delayMs],
    );
  }

  /**
   * Dead letter: kept for an operator to inspect and re-queue, with its payload until
   * {@link redactDeadLetters} drops it (`keepPayload` false drops it now).
   */
  async markFailed(lease: Lease, error: string, keepPayload = true): Promise<void> {
    await this.database.execute(
      `UPDATE ${TABLE} SET locked_until = NULL, last_error = $3, failed_at = now(),
         payload = CASE WHEN $4::boolean THEN payload ELSE NULL END
       WHERE event_id = $1 AND lease_token = $2`,
      [lease.event_id, lease.lease_token, error, keepPayload],
    );
  }

  /**
   * Drops the payload (customer text) of events dead-lettered more than `retentionHours`
   * ago; id, type, attempts and error stay. Returns how many.
   */
  async redactDeadLetters(retentionHours: number): Promise<number> {
    return this.database.execute(
      `UPDATE ${TABLE} SET payload = NULL
       WHERE failed_at IS NOT NULL AND payload IS NOT NULL
         AND failed_at <= now() - $1::int * interval '1 hour'`,
      [retentionHours],
    );
  }

  /**
   * Gives back leases of events this process claimed but did not finish (shutdown), so
   * the next start retries them at once; the interrupted attempt is not counted.
   */
  async release(leases: Lease[]): Promise<void> {
    if (leases.length === 0) {
      return;
    }
    await this.database.execute(
      `UPDATE ${TABLE} SET locked_until = NULL, attempts = GREATEST(attempts - 1, 0)
       WHERE event_id = ANY($1::text[]) AND lease_token = ANY($2::text[])
         AND processed_at IS NULL AND failed_at IS NULL`,
      [leases.map((l) => l.event_id), [...new Set(leases.map((l) => l.lease_token))]],
    );
  }

  /**
   * Events accepted and not yet settled (processed or dead-lettered), and the age in seconds
   * of the oldest of them (0 when none). Reads only the partial index of pending rows, so
   * its cost follows the backlog, not the table.
   */
  async backlog(): Promise<{ events: number; oldestSeconds: number }> {
    const [row] = await this.database.query<{ events: number; oldest: number | null }>(
      `SELECT count(*)::int AS events,
         EXTRACT(EPOCH FROM now() - min(received_at))::float8 AS oldest
       FROM ${TABLE} WHERE processed_at IS NULL AND failed_at IS NULL`,
    );
    return { events: Number(row?.events ?? 0), oldestSeconds: Number(row?.oldest ?? 0) };
  }

  /** Forgets processed events older than the retention; returns how many. */
  async purgeProcessed(): Promise<number> {
    return this.database.execute(
      `DELETE FROM ${TABLE} WHERE processed_at < now() - $1::int * interval '1 day'`,
      [RETENTION_DAYS],
    );
  }
}
