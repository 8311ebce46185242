import { Database, HistoryTombstoneEntity } from '@app/database';
import { Injectable } from '@nestjs/common';
import { IsNull, LessThanOrEqual, Raw } from 'typeorm';

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
    const rows = await this.forgets().find({
      select: { contactUid: true, locationUid: true, forgottenAt: true },
      // One array parameter, whatever the ingest batch: In() would bind one per contact.
      where: {
        contactUid: Raw((uid) => `${uid} = ANY(CAST(:uids AS text[]))`, {
          uids: [...new Set(contactUids)],
        }),
      },
    });
    return rows.map((t) => ({
      contact_uid: t.contactUid,
      location_uid: t.locationUid,
      forgotten_at: t.forgottenAt,
    }));
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
    // Raw: an upsert over unnest()ed locations that keeps the later forgotten_at (GREATEST).
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
    await this.forgets().update(
      { contactUid, purgedAt: IsNull(), forgottenAt: LessThanOrEqual(at) },
      { purgedAt: () => 'now()' },
    );
  }

  /** Whole-contact forgets whose rows may still be stored (the background purge's list). */
  async pendingForgets(limit: number): Promise<Array<{ contact_uid: string; forgotten_at: Date }>> {
    const rows = await this.forgets().find({
      select: { contactUid: true, forgottenAt: true },
      where: { purgedAt: IsNull(), locationUid: '' },
      order: { forgottenAt: 'ASC' },
      take: limit,
    });
    return rows.map((t) => ({ contact_uid: t.contactUid, forgotten_at: t.forgottenAt }));
  }

  private forgets() {
    return this.database.dataSource.getRepository(HistoryTombstoneEntity);
  }
}
