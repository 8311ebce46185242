import { Database } from '@app/database';
import { Injectable } from '@nestjs/common';

import { type PodiumEnvelope } from './podium-events';

/** A pending event handed to the worker under a lease. */
export interface ClaimedEvent {
  event_id: string;
  type: string;
  payload: PodiumEnvelope | null;
  /** Including the attempt now under way. */
  attempts: number;
  received_at: Date;
}

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
  async insert(eventId: string, type: string, envelope: PodiumEnvelope): Promise<boolean> {
    const inserted = await this.database.execute(
      `INSERT INTO ${TABLE} (event_id, type, payload) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (event_id) DO NOTHING`,
      [eventId, type, JSON.stringify(envelope)],
    );
    return inserted === 1;
  }

  /** Leases up to `limit` due events, oldest first, and counts the attempt. */
  async claim(limit: number, leaseMs: number): Promise<ClaimedEvent[]> {
    const rows = await this.database.query<ClaimedEvent>(
      `UPDATE ${TABLE} SET attempts = attempts + 1,
         locked_until = now() + $2::int * interval '1 millisecond'
       WHERE event_id IN (
         SELECT event_id FROM ${TABLE}
         WHERE processed_at IS NULL AND failed_at IS NULL AND next_attempt_at <= now()
           AND (locked_until IS NULL OR locked_until < now())
         ORDER BY received_at, event_id LIMIT $1
         FOR UPDATE SKIP LOCKED)
       RETURNING event_id, type, payload, attempts, received_at`,
      [limit, leaseMs],
    );
    return rows
      .map((r) => ({ ...r, received_at: new Date(r.received_at) }))
      .sort((a, b) => a.received_at.getTime() - b.received_at.getTime());
  }

  /** Done: the payload (customer text) is dropped, the id stays for dedupe. */
  async markProcessed(eventId: string): Promise<void> {
    await this.database.execute(
      `UPDATE ${TABLE} SET processed_at = now(), locked_until = NULL, payload = NULL,
         last_error = NULL WHERE event_id = $1`,
      [eventId],
    );
  }

  async scheduleRetry(eventId: string, error: string, delayMs: number): Promise<void> {
    await this.database.execute(
      `UPDATE ${TABLE} SET locked_until = NULL, last_error = $2,
         next_attempt_at = now() + $3::int * interval '1 millisecond' WHERE event_id = $1`,
      [eventId, error, delayMs],
    );
  }

  /** Dead letter: kept with its payload for an operator to inspect and re-queue. */
  async markFailed(eventId: string, error: string): Promise<void> {
    await this.database.execute(
      `UPDATE ${TABLE} SET locked_until = NULL, last_error = $2, failed_at = now()
       WHERE event_id = $1`,
      [eventId, error],
    );
  }

  /**
   * Gives back leases of events this process claimed but did not finish (shutdown), so
   * the next start retries them at once; the interrupted attempt is not counted.
   */
  async release(eventIds: string[]): Promise<void> {
    if (eventIds.length === 0) {
      return;
    }
    await this.database.execute(
      `UPDATE ${TABLE} SET locked_until = NULL, attempts = GREATEST(attempts - 1, 0)
       WHERE event_id = ANY($1::text[]) AND processed_at IS NULL AND failed_at IS NULL`,
      [eventIds],
    );
  }

  /** Forgets processed events older than the retention; returns how many. */
  async purgeProcessed(): Promise<number> {
    return this.database.execute(
      `DELETE FROM ${TABLE} WHERE processed_at < now() - $1::int * interval '1 day'`,
      [RETENTION_DAYS],
    );
  }
}
