import { type Migration } from './migration';

/**
 * A forget answers at once and deletes in the background:
 * - `history_tombstones.purged_at`: NULL while the forgotten rows may still be stored (the
 *   background purge's work list, resumable after a crash); earlier tombstones were purged
 *   when they were written.
 * - `podium_conversation_purges`: the vector store's own list of contacts whose windows up to
 *   `hidden_before` every search skips until the purge has deleted them.
 */
export const backgroundForget: Migration = {
  name: 'BackgroundForget1700000000011',
  up: (tx) =>
    tx.exec(`
      ALTER TABLE history_tombstones ADD COLUMN purged_at timestamptz;
      UPDATE history_tombstones SET purged_at = forgotten_at;
      CREATE INDEX history_tombstones_pending ON history_tombstones (contact_uid)
        WHERE purged_at IS NULL;
      CREATE TABLE podium_conversation_purges (
        contact_uid text PRIMARY KEY,
        hidden_before timestamptz NOT NULL)`),
};
