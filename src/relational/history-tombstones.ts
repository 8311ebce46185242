import { keyedHash } from '@app/common';
import { Database, type SqlExecutor } from '@app/database';
import { Injectable } from '@nestjs/common';

/** A forget request: messages of the contact up to `forgotten_at`, in a location or all (''). */
export interface HistoryTombstone {
  contact_uid: string;
  location_uid: string;
  forgotten_at: Date;
}

/** A forget whose rows may still be stored: the background purge's work. */
export interface PendingForget {
  contact_uid: string;
  /** '' for a whole-contact forget. */
  location_uid: string;
  /**
   * The database's clock at the forget (ISO-8601 with microseconds, as `stored_at` has them):
   * every message of the scope stored by then goes.
   */
  stored_before: string;
}

/**
 * A completed tombstone keeps a keyed hash, never the id: `#` is not a character of a uid,
 * so a hash never equals a live id.
 */
const HASHED = '#';

/** A timestamptz as ISO-8601 text with its microseconds (a JS Date would drop them). */
export const exactTime = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * Forget requests (`history_tombstones`), one per contact and location scope ('' = every
 * location). From its commit a pending tombstone hides every message of its scope stored by
 * then (`stored_before`, the database's clock, so a message's own date cannot keep it out),
 * and the ingest drops its messages dated up to `forgotten_at`, for good. Once its purge is
 * done the row keeps a keyed hash of the contact id instead of the id.
 */
@Injectable()
export class HistoryTombstones {
  private key?: Promise<string>;
  private written = 0;

  constructor(private readonly database: Database) {}

  /**
   * Tombstone writes this process has begun. On the embedded engine this process is the only
   * writer and a read waits for an open transaction, so a read begun at an unchanged count
   * still holds every tombstone ({@link singleWriter}); elsewhere another replica may write.
   */
  get writes(): number {
    return this.written;
  }

  /** Only this process writes tombstones (the embedded engine: one process per data dir). */
  get singleWriter(): boolean {
    return this.database.engine === 'pglite';
  }

  /** The tombstones of these contacts, pending and completed (hashed) alike. */
  async tombstones(contactUids: readonly string[]): Promise<HistoryTombstone[]> {
    const uids = [...new Set(contactUids)];
    if (uids.length === 0) {
      return [];
    }
    const hashes = await Promise.all(uids.map((uid) => this.hashOf(uid)));
    const uidOf = new Map<string, string>([
      ...uids.map((u): [string, string] => [u, u]),
      ...hashes.map((h, i): [string, string] => [h, uids[i]]),
    ]);
    // Raw: one array parameter, whatever the ingest batch (In() would bind one per value).
    const rows = await this.database.query<{
      contact_uid: string;
      location_uid: string;
      forgotten_at: Date;
    }>(
      `SELECT contact_uid, location_uid, forgotten_at FROM history_tombstones
       WHERE contact_uid = ANY($1::text[])`,
      [[...uidOf.keys()]],
    );
    return rows.map((t) => ({
      contact_uid: uidOf.get(t.contact_uid) as string,
      location_uid: t.location_uid,
      forgotten_at: new Date(t.forgotten_at),
    }));
  }

  /**
   * Writes a forget's tombstone (`locations` undefined: every location) on `tx`; returns the
   * database's clock at the write (`stored_before`, see {@link exactTime}). `purged_at` stays NULL until
   * {@link markPurged}: the stored rows are the purge's work, resumed after a crash.
   */
  async recordForget(
    tx: SqlExecutor,
    contactUid: string,
    locations: readonly string[] | undefined,
    at: Date,
  ): Promise<string> {
    this.written++;
    // Raw: an upsert over unnest()ed locations that keeps the later times (GREATEST).
    const rows = await tx.query<{ stored_before: string }>(
      `INSERT INTO history_tombstones (contact_uid, location_uid, forgotten_at, stored_before)
       SELECT $1, unnest($2::text[]), $3, now()
       ON CONFLICT (contact_uid, location_uid)
         DO UPDATE SET forgotten_at = GREATEST(history_tombstones.forgotten_at, $3),
           stored_before = now(), purged_at = NULL
       RETURNING ${exactTime('stored_before')} AS stored_before`,
      [contactUid, locations ?? [''], at],
    );
    return rows[0].stored_before;
  }

  /**
   * The forget of `location` ('' : the whole contact) stored by `storedBefore` is done: its
   * tombstone, and those it covers (a whole-contact purge covers every location's), no longer
   * hide anything, and keep a keyed hash instead of the id. A location's purge never
   * completes a pending whole-contact forget.
   */
  async markPurged(contactUid: string, location: string, storedBefore: string): Promise<void> {
    this.written++;
    const hash = await this.hashOf(contactUid);
    await this.database.transaction(async (tx) => {
      // Raw: the purged rows' times merged into their hashed rows, then renamed to the hash.
      const done = await tx.query<{ location_uid: string; forgotten_at: Date }>(
        `DELETE FROM history_tombstones WHERE contact_uid = $1 AND purged_at IS NULL
           AND stored_before <= $3::timestamptz AND ($2 = '' OR location_uid = $2)
         RETURNING location_uid, forgotten_at`,
        [contactUid, location, storedBefore],
      );
      if (done.length === 0) {
        return;
      }
      await tx.execute(
        `INSERT INTO history_tombstones
           (contact_uid, location_uid, forgotten_at, stored_before, purged_at)
         SELECT $1, l, f, $4::timestamptz, now()
         FROM unnest($2::text[], $3::timestamptz[]) AS d(l, f)
         ON CONFLICT (contact_uid, location_uid) DO UPDATE
           SET forgotten_at = GREATEST(history_tombstones.forgotten_at, EXCLUDED.forgotten_at),
             stored_before = EXCLUDED.stored_before, purged_at = now()`,
        [hash, done.map((d) => d.location_uid), done.map((d) => d.forgotten_at), storedBefore],
      );
    });
  }

  /** Forgets whose rows may still be stored, whole contacts first, oldest first. */
  async pendingForgets(limit: number, contactUid?: string): Promise<PendingForget[]> {
    // Raw: the exact time as text (see exactTime), which TypeORM would read as a Date.
    return this.database.query<PendingForget>(
      `SELECT contact_uid, location_uid, ${exactTime('stored_before')} AS stored_before
       FROM history_tombstones WHERE purged_at IS NULL AND ($1::text IS NULL OR contact_uid = $1)
       ORDER BY location_uid, stored_before LIMIT $2`,
      [contactUid ?? null, limit],
    );
  }

  /** The keyed hash a completed tombstone keeps for `contactUid`. */
  async hashOf(contactUid: string): Promise<string> {
    this.key ??= this.database
      .query<{ key: string }>(`SELECT key FROM erasure_key WHERE id = 1`)
      .then(([row]) => row.key)
      .catch((error: unknown) => {
        this.key = undefined;
        throw error;
      });
    return `${HASHED}${keyedHash(await this.key, contactUid, 32)}`;
  }
}
