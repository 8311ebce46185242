import { Database } from '@app/database';
import { Injectable } from '@nestjs/common';

/** A forget request: messages of the contact up to `forgotten_at`, in a location or all (''). */
export interface HistoryTombstone {
  contact_uid: string;
  location_uid: string;
  forgotten_at: Date;
}

/**
 * Forget requests (`history_tombstones`): from its commit a tombstone hides the contact's
 * older messages from every load, and the ingest drops them, until the purge has deleted them.
 */
@Injectable()
export class HistoryTombstones {
  constructor(private readonly database: Database) {}

  async tombstones(contactUids: readonly string[]): Promise<HistoryTombstone[]> {
    return this.database.query<HistoryTombstone>(
      `SELECT contact_uid, location_uid, forgotten_at FROM history_tombstones
       WHERE contact_uid = ANY($1::text[])`,
      [[...new Set(contactUids)]],
    );
  }

  /**
   * Writes a forget's tombstone (`locations` undefined: every location). From its commit no
   * older message of the contact is stored or loaded again; `purged_at` stays NULL until
   * {@link markPurged}: the stored rows are the purge's work, resumed after a crash.
   */
  async recordForget(
    contactUid: string,
    locations: readonly string[] | undefined,
    at: Date,
  ): Promise<void> {
    await this.database.execute(
      `INSERT INTO history_tombstones (contact_uid, location_uid, forgotten_at)
       SELECT $1, unnest($2::text[]), $3
       ON CONFLICT (contact_uid, location_uid)
         DO UPDATE SET forgotten_at = GREATEST(history_tombstones.forgotten_at, $3),
           purged_at = NULL`,
      [contactUid, locations ?? [''], at],
    );
  }

  /** The forget's rows are gone: its tombstone no longer hides anything. */
  async markPurged(contactUid: string, at: Date): Promise<void> {
    await this.database.execute(
      `UPDATE history_tombstones SET purged_at = now()
       WHERE contact_uid = $1 AND purged_at IS NULL AND forgotten_at <= $2`,
      [contactUid, at],
    );
  }

  /** Whole-contact forgets whose rows may still be stored (the background purge's list). */
  async pendingForgets(limit: number): Promise<Array<{ contact_uid: string; forgotten_at: Date }>> {
    return this.database.query(
      `SELECT contact_uid, forgotten_at FROM history_tombstones
       WHERE purged_at IS NULL AND location_uid = '' ORDER BY forgotten_at LIMIT $1`,
      [limit],
    );
  }
}
