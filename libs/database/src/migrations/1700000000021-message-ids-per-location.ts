import { type Migration } from './migration';

/**
 * A message id is unique per location, not across the deployment (issue 36): two tenants
 * may store the same Podium uid, and neither's write can find, move or block the other's row.
 * A unique index over an expression, not a generated column (that would rewrite the table);
 * `message_id` first, so deletes and the unbound relabel still look an id up by its prefix.
 * Upserts name the same expressions in `ON CONFLICT`.
 */
export const messageIdsPerLocation: Migration = {
  name: 'MessageIdsPerLocation1700000000021',
  up: (tx) =>
    tx.exec(`
      CREATE UNIQUE INDEX conversation_messages_location_message
        ON conversation_messages (message_id, (coalesce(location_uid, '')));
      ALTER TABLE conversation_messages DROP CONSTRAINT conversation_messages_pkey;`),
};
