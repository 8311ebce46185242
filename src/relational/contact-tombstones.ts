import { Database, PodiumContactTombstoneEntity } from '@app/database';
import { Injectable } from '@nestjs/common';
import { In, IsNull, LessThan } from 'typeorm';

/** What a tombstone says about a contact id, for a message written at a given time. */
export type Tombstone = { kind: 'deleted' } | { kind: 'merged'; into: string };

/**
 * Deleted tombstones are kept this long: past Podium's ~10-day redelivery queue (and the
 * inbox's 14-day dedupe), so no message older than the deletion can still arrive after.
 */
export const TOMBSTONE_RETENTION_DAYS = 14;

/**
 * Contacts Podium deleted or merged away, so events processed out of order (a message
 * retried after its contact's deletion) cannot undo those events.
 *
 * A deletion is a point in time, not a ban on an identifier: phones and emails are reused
 * (the same customer comes back, or a number is reassigned). So a deleted tombstone drops
 * only messages written before the deletion, a later `contact.created` / `contact.updated`
 * naming the id lifts it, and it expires after {@link TOMBSTONE_RETENTION_DAYS}. Merges
 * stay: a merged-away Podium uid is never reused, and its messages go to the survivor.
 */
@Injectable()
export class ContactTombstones {
  constructor(private readonly database: Database) {}

  /** `at`: when the deletion happened; an older event never overwrites a newer tombstone. */
  async recordDeleted(contactUids: string[], at: Date): Promise<void> {
    // Raw: a conditional upsert (ON CONFLICT … DO UPDATE … WHERE) over an unnest()ed batch.
    await this.database.execute(
      `INSERT INTO podium_contact_tombstones (contact_uid, merged_into, event_at)
       SELECT unnest($1::text[]), NULL, $2::timestamptz
       ON CONFLICT (contact_uid) DO UPDATE SET merged_into = NULL, event_at = EXCLUDED.event_at,
         recorded_at = now()
       WHERE podium_contact_tombstones.event_at <= EXCLUDED.event_at`,
      [contactUids, at.toISOString()],
    );
  }

  async recordMerged(fromContactUid: string, toContactUid: string, at: Date): Promise<void> {
    // Raw: the upsert also stamps recorded_at with the server's now().
    await this.database.execute(
      `INSERT INTO podium_contact_tombstones (contact_uid, merged_into, event_at)
       VALUES ($1, $2, $3::timestamptz)
       ON CONFLICT (contact_uid) DO UPDATE SET merged_into = $2, event_at = EXCLUDED.event_at,
         recorded_at = now()`,
      [fromContactUid, toContactUid, at.toISOString()],
    );
  }

  /**
   * A contact event at `at` says these ids are alive again (a new contact with a deleted
   * one's phone, say): deletions recorded before it no longer drop their messages.
   */
  async lift(contactUids: string[], at: Date): Promise<number> {
    const { affected } = await this.tombstones().delete({
      contactUid: In(contactUids),
      mergedInto: IsNull(),
      eventAt: LessThan(at),
    });
    return affected ?? 0;
  }

  /**
   * What applies to a message for `contactUid` written at `writtenAt`: follows merge chains
   * (a merged into b merged into c) to the contact that survives; a deletion counts only for
   * messages written at or before it.
   */
  async lookup(contactUid: string, writtenAt: Date): Promise<Tombstone | undefined> {
    let current = contactUid;
    let merged = false;
    for (let hop = 0; hop < 8; hop++) {
      const row = await this.tombstones().findOne({
        select: { mergedInto: true, eventAt: true },
        where: { contactUid: current },
      });
      if (row?.mergedInto === null && writtenAt.getTime() <= row.eventAt.getTime()) {
        return { kind: 'deleted' };
      }
      if (!row || row.mergedInto === null) {
        return merged ? { kind: 'merged', into: current } : undefined;
      }
      current = row.mergedInto;
      merged = true;
    }
    return { kind: 'merged', into: current };
  }

  /** Forgets deletions older than the retention; returns how many. */
  async purgeExpired(): Promise<number> {
    const { affected } = await this.tombstones()
      .createQueryBuilder()
      .delete()
      .where('merged_into IS NULL')
      // The server's clock, as for recorded_at.
      .andWhere(`event_at < now() - CAST(:days AS int) * interval '1 day'`, {
        days: TOMBSTONE_RETENTION_DAYS,
      })
      .execute();
    return affected ?? 0;
  }

  private tombstones() {
    return this.database.dataSource.getRepository(PodiumContactTombstoneEntity);
  }
}
