import { type Migration } from './migration';

/**
 * Contacts Podium deleted or merged away. Webhook events can be processed out of order (a
 * retried message after its contact's deletion); the tombstone keeps such a late message
 * from bringing a deleted contact's text back, and sends a merged-away contact's message to
 * the survivor. Ids only: no customer text.
 */
export const podiumContactTombstones: Migration = {
  name: 'PodiumContactTombstones1700000000003',
  up: (tx) =>
    tx.exec(`
      CREATE TABLE podium_contact_tombstones (
        contact_uid text PRIMARY KEY,
        merged_into text,
        recorded_at timestamptz NOT NULL DEFAULT now())`),
};
