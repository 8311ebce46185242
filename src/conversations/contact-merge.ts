import { type Database } from '@app/database';
import { type VectorStore } from '@app/vector';

import { type HistoryTombstones } from '../relational/history-tombstones';
import { type ReplicaLocks } from './replica-locks';

/**
 * CRM contacts merged: the source's history follows the survivor. Under both contacts'
 * locks, so no message is stored or forgotten for either meanwhile; the source's pending
 * forgets finish first, so nothing they cover moves (a merge never resurrects a forgotten
 * message); then messages, window ledger, windows, postings and per-contact statistics move
 * in one transaction (a store outside the database, Qdrant, moves its points after it).
 * Moved messages and windows join the survivor now: a forget of the survivor pending from
 * before does not cover them.
 */
export class ContactMerge {
  constructor(
    private readonly database: Database,
    private readonly forgets: HistoryTombstones,
    private readonly store: VectorStore,
    private readonly locks: ReplicaLocks,
    private readonly finishForgets: (contactUid: string) => Promise<void>,
  ) {}

  async run(fromContactUid: string, toContactUid: string): Promise<number> {
    if (fromContactUid === toContactUid) {
      return 0;
    }
    return this.locks.run('contact', [fromContactUid, toContactUid], async () => {
      if ((await this.forgets.pendingForgets(1, fromContactUid)).length) {
        await this.finishForgets(fromContactUid);
      }
      const moved = await this.database.transaction(async (tx) => {
        // Raw: UPDATEs that re-key the contact's messages and window ledger.
        await tx.execute(
          `UPDATE conversation_messages SET contact_uid = $2, stored_at = now()
           WHERE contact_uid = $1`,
          [fromContactUid, toContactUid],
        );
        await tx.execute(
          `UPDATE conversation_windows SET contact_uid = $2 WHERE contact_uid = $1`,
          [fromContactUid, toContactUid],
        );
        return this.store.moveContactIn?.(tx, fromContactUid, toContactUid);
      });
      return moved ?? this.store.reassignContact(fromContactUid, toContactUid);
    });
  }
}
