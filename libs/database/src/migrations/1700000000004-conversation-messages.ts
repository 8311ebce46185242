import { type Migration } from './migration';

/**
 * Conversation memory. Messages become the source of truth and windows are
 * derived from them per conversation:
 * - `conversation_messages`: each message once, already redacted. `message_id` is Podium's
 *   message uid when there is one, else `turn_key`; `turn_key` (a hash of conversation, time,
 *   sender and text) also lets a message that arrives once with a uid and once without be
 *   recognised as the same one.
 * - `conversation_windows`: the windows derived from stored messages, so a rebuild knows
 *   which windows are stale. Windows stored before this migration are not listed, so a new
 *   message never removes history that exists only as windows (`reindex` does, explicitly).
 * - `history_tombstones`: forgotten contacts (`DELETE /contacts/{uid}/history`), per location
 *   scope ('' = every location): messages up to `forgotten_at` are never stored again.
 */
export const conversationMessages: Migration = {
  name: 'ConversationMessages1700000000004',
  up: (tx) =>
    tx.exec(`
      CREATE TABLE conversation_messages (
        message_id text PRIMARY KEY,
        turn_key text NOT NULL,
        conversation_uid text NOT NULL,
        contact_uid text NOT NULL,
        location_uid text,
        channel text NOT NULL,
        occurred_at timestamptz NOT NULL,
        sender text NOT NULL,
        text text NOT NULL,
        stored_at timestamptz NOT NULL DEFAULT now());
      CREATE INDEX conversation_messages_conversation
        ON conversation_messages (contact_uid, conversation_uid);
      CREATE INDEX conversation_messages_turn_key ON conversation_messages (turn_key);
      CREATE INDEX conversation_messages_occurred_at ON conversation_messages (occurred_at);

      CREATE TABLE conversation_windows (
        window_id uuid PRIMARY KEY,
        contact_uid text NOT NULL,
        conversation_uid text NOT NULL);
      CREATE INDEX conversation_windows_conversation
        ON conversation_windows (contact_uid, conversation_uid);

      CREATE TABLE history_tombstones (
        contact_uid text NOT NULL,
        location_uid text NOT NULL,
        forgotten_at timestamptz NOT NULL,
        PRIMARY KEY (contact_uid, location_uid))`),
};
