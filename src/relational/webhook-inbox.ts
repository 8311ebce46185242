import { randomUUID } from 'node:crypto';

import { Database, PodiumWebhookEventEntity, replicaGone } from '@app/database';
import { Injectable } from '@nestjs/common';
import { In, IsNull, Not } from 'typeorm';

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

/** `now()` plus the milliseconds in parameter `name`: the server's clock, as the claim's. */
const msFromNow = (name: string) => `now() + CAST(:${name} AS int) * interval '1 millisecond'`;

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
    // Raw: ON CONFLICT (event_id) DO NOTHING names its target (TypeORM's orIgnore() does not).
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
    // Raw: the lease claim, an UPDATE … RETURNING over a FOR UPDATE SKIP LOCKED subquery.
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
    const { affected } = await this.events()
      .createQueryBuilder()
      .update()
      .set({ lockedUntil: () => msFromNow('leaseMs') })
      .where({ ...held(lease), processedAt: IsNull(), failedAt: IsNull() })
      .setParameters({ leaseMs })
      .execute();
    return affected === 1;
  }

  /** Done: the payload (customer text) is dropped, the id stays for dedupe. */
  async markProcessed(lease: Lease): Promise<void> {
    await this.events().update(held(lease), {
      processedAt: () => 'now()',
      lockedUntil: null,
      payload: null,
      lastError: null,
    });
  }

  async scheduleRetry(lease: Lease, error: string, delayMs: number): Promise<void> {
    await this.events()
      .createQueryBuilder()
      .update()
      .set({ lockedUntil: null, lastError: error, nextAttemptAt: () => msFromNow('delayMs') })
      .where(held(lease))
      .setParameters({ delayMs })
      .execute();
  }

  /**
   * Dead letter: kept for an operator to inspect and re-queue, with its payload until
   * {@link redactDeadLetters} drops it (`keepPayload` false drops it now).
   */
  async markFailed(lease: Lease, error: string, keepPayload = true): Promise<void> {
    await this.events().update(held(lease), {
      lockedUntil: null,
      lastError: error,
      failedAt: () => 'now()',
      ...(keepPayload ? {} : { payload: null }),
    });
  }

  /**
   * Drops the payload (customer text) of events dead-lettered more than `retentionHours`
   * ago; id, type, attempts and error stay. Returns how many.
   */
  async redactDeadLetters(retentionHours: number): Promise<number> {
    const { affected } = await this.events()
      .createQueryBuilder()
      .update()
      .set({ payload: null })
      .where({ failedAt: Not(IsNull()), payload: Not(IsNull()) })
      .andWhere(`failed_at <= now() - CAST(:hours AS int) * interval '1 hour'`, {
        hours: retentionHours,
      })
      .execute();
    return affected ?? 0;
  }

  /**
   * On embedded PGlite, hands back every lease still held when this process opens the
   * database. Its data-dir lock admits one process at a time, so any lease found then was
   * taken by a process that died (kill -9, OOM) and would otherwise hold its events back for
   * the rest of the lease: leases there carry no replica id for the claim to test. The
   * attempt stays counted, so an event that kills its process still reaches the dead letters.
   * A no-op on a Postgres server, where the claim takes over a gone replica's leases itself.
   */
  async releaseOrphanedLeases(): Promise<number> {
    if (this.database.engine !== 'pglite') {
      return 0;
    }
    const { affected } = await this.events()
      .createQueryBuilder()
      .update()
      .set({ lockedUntil: null })
      .where({ processedAt: IsNull(), failedAt: IsNull(), lockedUntil: Not(IsNull()) })
      .execute();
    return affected ?? 0;
  }

  /**
   * Gives back leases of events this process claimed but did not finish (shutdown), so
   * the next start retries them at once; the interrupted attempt is not counted.
   */
  async release(leases: Lease[]): Promise<void> {
    if (leases.length === 0) {
      return;
    }
    await this.events()
      .createQueryBuilder()
      .update()
      .set({ lockedUntil: null, attempts: () => 'GREATEST(attempts - 1, 0)' })
      .where({
        eventId: In(leases.map((l) => l.event_id)),
        leaseToken: In([...new Set(leases.map((l) => l.lease_token))]),
        processedAt: IsNull(),
        failedAt: IsNull(),
      })
      .execute();
  }

  /**
   * Events accepted and not yet settled (processed or dead-lettered), and the age in seconds
   * of the oldest of them (0 when none). Reads only the partial index of pending rows, so
   * its cost follows the backlog, not the table.
   */
  async backlog(): Promise<{ events: number; oldestSeconds: number }> {
    const row = await this.events()
      .createQueryBuilder('e')
      .select('CAST(count(*) AS int)', 'events')
      .addSelect('CAST(EXTRACT(EPOCH FROM now() - min(e.received_at)) AS float8)', 'oldest')
      .where({ processedAt: IsNull(), failedAt: IsNull() })
      .getRawOne<{ events: number; oldest: number | null }>();
    return { events: Number(row?.events ?? 0), oldestSeconds: Number(row?.oldest ?? 0) };
  }

  /** Forgets processed events older than the retention; returns how many. */
  async purgeProcessed(): Promise<number> {
    const { affected } = await this.events()
      .createQueryBuilder()
      .delete()
      .where(`processed_at < now() - CAST(:days AS int) * interval '1 day'`, {
        days: RETENTION_DAYS,
      })
      .execute();
    return affected ?? 0;
  }

  private events() {
    return this.database.dataSource.getRepository(PodiumWebhookEventEntity);
  }
}

/** The rows a lease names: only its holder's token matches. */
function held(lease: Lease) {
  return { eventId: lease.event_id, leaseToken: lease.lease_token };
}
