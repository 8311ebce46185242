import { Database } from '@app/database';
import { type ConversationKey } from '@app/vector';

import { exactTime } from './history-tombstones';

/** Rows one maintenance statement deletes: no statement runs long, whatever the history. */
export const DELETE_BATCH = 5000;

/** A conversation waiting for its rebuild, and when it was listed (last; exact, see exactTime). */
export interface ListedRebuild extends ConversationKey {
  listed_at: string;
}

/**
 * The durable side of erasure. A deletion of messages lists the conversations that lost
 * some in `history_rebuilds` in the same statement, so a crash between the deletion and the
 * rebuild leaves the work listed, never lost: a forget's purge or the next retention sweep
 * rebuilds what is listed. Also the webhook inbox's copies of a forgotten contact.
 */
export class ErasureWork {
  constructor(private readonly database: Database) {}

  /**
   * Deletes the messages of `contactUid` (in `locations` only, when given) stored by
   * `storedBefore`, whatever their dates, in batches until done or `signal` aborts.
   */
  deleteCovered(
    contactUid: string,
    locations: readonly string[] | undefined,
    storedBefore: string,
    signal?: AbortSignal,
  ): Promise<boolean> {
    return locations
      ? this.deleteListing(
          `contact_uid = $1 AND stored_at <= $2::timestamptz AND location_uid = ANY($3::text[])`,
          [contactUid, storedBefore, locations],
          signal,
        )
      : this.deleteListing(
          `contact_uid = $1 AND stored_at <= $2::timestamptz`,
          [contactUid, storedBefore],
          signal,
        );
  }

  /** Deletes every message dated before `cutoff` (retention), in batches. */
  async deleteExpired(cutoff: Date, signal?: AbortSignal): Promise<boolean> {
    return this.deleteListing(`occurred_at < $1`, [cutoff], signal);
  }

  /** Listed conversations (of one contact, or all), oldest listing first. */
  async listed(limit: number, contactUid?: string): Promise<ListedRebuild[]> {
    // Raw: a bounded read of the work list with an optional contact.
    // The exact time: a Date's milliseconds would never match it again (rebuilt() compares).
    return this.database.query<ListedRebuild>(
      `SELECT contact_uid, conversation_uid, ${exactTime('listed_at')} AS listed_at
       FROM history_rebuilds
       WHERE $1::text IS NULL OR contact_uid = $1 ORDER BY history_rebuilds.listed_at LIMIT $2`,
      [contactUid ?? null, limit],
    );
  }

  /**
   * Takes rebuilt conversations off the list, unless listed again since they were read (a
   * deletion after the rebuild loaded its messages: that one still needs its rebuild).
   */
  async rebuilt(done: readonly ListedRebuild[]): Promise<void> {
    if (done.length === 0) {
      return;
    }
    // Raw: a join on unnest()ed key triples.
    await this.database.execute(
      `DELETE FROM history_rebuilds r
       USING unnest($1::text[], $2::text[], $3::timestamptz[]) AS d(contact, conversation, listed)
       WHERE r.contact_uid = d.contact AND r.conversation_uid = d.conversation
         AND r.listed_at <= d.listed`,
      [
        done.map((d) => d.contact_uid),
        done.map((d) => d.conversation_uid),
        done.map((d) => d.listed_at),
      ],
    );
  }

  /** Lists conversations for rebuild (a purge whose store deleted windows by contact). */
  async list(keys: readonly ConversationKey[]): Promise<void> {
    if (keys.length) {
      // Raw: an unnest() upsert of the work list.
      await this.database.execute(
        `INSERT INTO history_rebuilds (contact_uid, conversation_uid)
         SELECT * FROM unnest($1::text[], $2::text[])
         ON CONFLICT (contact_uid, conversation_uid) DO UPDATE SET listed_at = clock_timestamp()`,
        [keys.map((k) => k.contact_uid), keys.map((k) => k.conversation_uid)],
      );
    }
  }

  /**
   * The webhook inbox's copies of the contact (in `locations`, when given): payloads of
   * events not yet processed or dead-lettered (processed ones keep no payload). Such an event
   * is settled without being applied: its message is forgotten, its contact change is moot.
   */
  async clearWebhookPayloads(
    contactUid: string,
    locations: readonly string[] | undefined,
  ): Promise<number> {
    // The ids as they appear quoted in JSON text (a uid has no character JSON escapes).
    return this.database.execute(
      `UPDATE podium_webhook_events
         SET payload = NULL, processed_at = coalesce(processed_at, now()), locked_until = NULL
       WHERE payload IS NOT NULL AND strpos(payload::text, $1) > 0
         AND ($2::text[] IS NULL
           OR EXISTS (SELECT 1 FROM unnest($2::text[]) l WHERE strpos(payload::text, l) > 0))`,
      [JSON.stringify(contactUid), locations ? locations.map((l) => JSON.stringify(l)) : null],
    );
  }

  /**
   * The local CRM's row of the contact (`contacts import`, PODIUM_PROVIDER=local), when in
   * `locations` if given: a forgotten contact's phone and email go with its history.
   */
  async deleteLocalContact(
    contactUid: string,
    locations: readonly string[] | undefined,
  ): Promise<number> {
    return this.database.execute(
      `DELETE FROM podium_contacts
       WHERE contact_uid = $1 AND ($2::text[] IS NULL OR location_uid = ANY($2::text[]))`,
      [contactUid, locations ? [...locations] : null],
    );
  }

  /**
   * A forgotten contact's id leaves the webhook's contact tombstones: its own entry goes (the
   * forget's tombstone now refuses its older messages), and a contact merged into it becomes
   * a deletion of that contact (its older messages dropped, not redirected to a forgotten id).
   */
  async clearContactTombstones(contactUid: string): Promise<void> {
    await this.database.execute(`DELETE FROM podium_contact_tombstones WHERE contact_uid = $1`, [
      contactUid,
    ]);
    await this.database.execute(
      `UPDATE podium_contact_tombstones SET merged_into = NULL WHERE merged_into = $1`,
      [contactUid],
    );
  }

  /** Where the vector store hides the contact's windows up to (pgvector), if it does. */
  async hiddenBefore(contactUid: string): Promise<string | undefined> {
    const [row] = await this.database.query<{ hidden_before: string }>(
      `SELECT ${exactTime('hidden_before')} AS hidden_before
       FROM podium_conversation_purges WHERE contact_uid = $1`,
      [contactUid],
    );
    return row?.hidden_before;
  }

  /** Whether the contact still has its own HNSW index (pgvector; dropped by its upkeep). */
  async hasContactIndex(contactUid: string): Promise<boolean> {
    const rows = await this.database.query(
      `SELECT 1 FROM large_contact_indexes WHERE contact_uid = $1`,
      [contactUid],
    );
    return rows.length > 0;
  }

  /**
   * Returns once the database's clock is past `time`. PGlite's clock ticks in milliseconds:
   * a message stored in the forget's own millisecond, after it, would count as covered.
   */
  async waitPast(time: string): Promise<void> {
    for (;;) {
      const [row] = await this.database.query<{ past: boolean }>(
        `SELECT clock_timestamp() > $1::timestamptz AS past`,
        [time],
      );
      if (row.past) {
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
  }

  /** The database's clock now, exact (compared with `stored_at`, which it writes). */
  async now(): Promise<string> {
    const [row] = await this.database.query<{ now: string }>(
      `SELECT ${exactTime('clock_timestamp()')} AS now`,
    );
    return row.now;
  }

  /** Messages matching `where` (parameters from $1), listed for rebuild by the same statement. */
  private async deleteListing(
    where: string,
    params: unknown[],
    signal?: AbortSignal,
  ): Promise<boolean> {
    const limit = `$${params.length + 1}`;
    for (;;) {
      if (signal?.aborted) {
        return false;
      }
      // Raw: a bounded DELETE … RETURNING feeding an upsert of the work list, one statement.
      // By (id, location), the key: another location's row with the same id stays.
      const [row] = await this.database.query<{ n: number }>(
        `WITH doomed AS MATERIALIZED (
           SELECT message_id, coalesce(location_uid, '') AS location
           FROM conversation_messages WHERE ${where} LIMIT ${limit}),
         gone AS (
           DELETE FROM conversation_messages m USING doomed d
           WHERE m.message_id = d.message_id AND coalesce(m.location_uid, '') = d.location
           RETURNING m.contact_uid, m.conversation_uid),
         listed AS (
           INSERT INTO history_rebuilds (contact_uid, conversation_uid)
           SELECT DISTINCT contact_uid, conversation_uid FROM gone
           ON CONFLICT (contact_uid, conversation_uid) DO UPDATE SET listed_at = clock_timestamp())
         SELECT count(*)::int AS n FROM gone`,
        [...params, DELETE_BATCH],
      );
      if (row.n < DELETE_BATCH) {
        return true;
      }
    }
  }
}
