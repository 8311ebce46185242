import { Database } from '@app/database';
import { Injectable } from '@nestjs/common';

/** What a tombstone says about a contact id. */
export type Tombstone = { kind: 'deleted' } | { kind: 'merged'; into: string };

/**
 * Contacts Podium deleted or merged away, so events processed out of order (a message
 * retried after its contact's deletion) cannot undo those events.
 */
@Injectable()
export class ContactTombstones {
  constructor(private readonly database: Database) {}

  async recordDeleted(contactUids: string[]): Promise<void> {
    await this.database.execute(
      `INSERT INTO podium_contact_tombstones (contact_uid, merged_into)
       SELECT unnest($1::text[]), NULL
       ON CONFLICT (contact_uid) DO UPDATE SET merged_into = NULL, recorded_at = now()`,
      [contactUids],
    );
  }

  async recordMerged(fromContactUid: string, toContactUid: string): Promise<void> {
    await this.database.execute(
      `INSERT INTO podium_contact_tombstones (contact_uid, merged_into) VALUES ($1, $2)
       ON CONFLICT (contact_uid) DO UPDATE SET merged_into = $2, recorded_at = now()`,
      [fromContactUid, toContactUid],
    );
  }

  /** Follows merge chains (a merged into b merged into c) to the contact that survives. */
  async lookup(contactUid: string): Promise<Tombstone | undefined> {
    let current = contactUid;
    let merged = false;
    for (let hop = 0; hop < 8; hop++) {
      const [row] = await this.database.query<{ merged_into: string | null }>(
        `SELECT merged_into FROM podium_contact_tombstones WHERE contact_uid = $1`,
        [current],
      );
      if (!row) {
        return merged ? { kind: 'merged', into: current } : undefined;
      }
      if (row.merged_into === null) {
        return { kind: 'deleted' };
      }
      current = row.merged_into;
      merged = true;
    }
    return { kind: 'merged', into: current };
  }
}
