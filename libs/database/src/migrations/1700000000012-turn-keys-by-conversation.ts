import { type Migration } from './migration';

/**
 * A message's `turn_key` is looked up within its conversation (the key hashes the
 * conversation, so a turn never matches across conversations). Indexed by conversation
 * first, the keys of one conversation sit on one leaf page: an ingest of a conversation's
 * messages reads and writes that page once, where the index of bare keys (random hashes)
 * took one random page per message, out of cache once the history outgrows memory.
 */
export const turnKeysByConversation: Migration = {
  name: 'TurnKeysByConversation1700000000012',
  up: (tx) =>
    tx.exec(`
      CREATE INDEX conversation_messages_conversation_turn
        ON conversation_messages (conversation_uid, turn_key);
      DROP INDEX conversation_messages_turn_key`),
  down: (tx) =>
    tx.exec(`
      CREATE INDEX conversation_messages_turn_key ON conversation_messages (turn_key);
      DROP INDEX conversation_messages_conversation_turn`),
};
