import { type Migration } from './migration';

// Literal names: a migration is a frozen snapshot and must not follow later renames.
const POSTINGS = [
  'podium_conversations_terms',
  'kb_source_chunks_terms',
  'kb_topic_summaries_terms',
] as const;

/**
 * Two lookup indexes that cost more than what they look up (issue 42: bytes per window).
 *  - Postings: the primary key `(doc_id, term)` only served deletes by document (a forget, a
 *    retention sweep, the FK cascade); no statement looks a posting up by its term within a
 *    document, and the pair is unique by construction (a row's postings are written once, with
 *    the row, one per distinct term, only when the row itself was new). A plain `(doc_id)`
 *    index serves the same deletes and deduplicates a document's ~27 entries into one:
 *    1,565 → ~200 bytes a window at 20k windows.
 *  - Messages: `(conversation_uid, turn_key)` held a 64-character hash per message, to find a
 *    batch's turns already stored. The ingest then loads every message of the same
 *    conversations to rebuild their windows, so finding the turns among the conversation's
 *    rows (a deduplicated `(conversation_uid)` index) reads no page that load does not read:
 *    ~815 → ~60 bytes a window.
 */
export const leanLookupIndexes: Migration = {
  name: 'LeanLookupIndexes1700000000020',
  up: async (tx) => {
    for (const table of POSTINGS) {
      await tx.exec(`
        CREATE INDEX ${table}_doc ON ${table} (doc_id);
        ALTER TABLE ${table} DROP CONSTRAINT ${table}_pkey;`);
    }
    await tx.exec(`
      CREATE INDEX conversation_messages_conversation_uid
        ON conversation_messages (conversation_uid);
      DROP INDEX conversation_messages_conversation_turn;`);
  },
};
