import { type Migration } from './migration';

/**
 * A contact's windows by time (issue 40): a question that names a date searches only that
 * range of the contact's history, and `(contact_uid, occurred_at)` reads those windows alone
 * where `(contact_uid)` read every window of the contact (tens of thousands for the largest).
 * It replaces `(contact_uid)`, whose lookups it serves as its leading column.
 */
export const contactTimeIndex: Migration = {
  name: 'ContactTimeIndex1700000000022',
  up: (tx) =>
    tx.exec(`
      CREATE INDEX podium_conversations_contact_occurred
        ON podium_conversations (contact_uid, occurred_at);
      DROP INDEX podium_conversations_contact_uid;`),
};
