import { type Migration } from './migration';

// Literal names: a migration is a frozen snapshot and must not follow later renames.
const TABLES = ['podium_conversations', 'kb_source_chunks', 'kb_topic_summaries'];

/**
 * The Postgres full-text column (`tsv`, generated from `content`) and its GIN index served
 * the old `ts_rank_cd` lexical leg, which BM25 over the term postings replaced. Nothing reads
 * them any more, and every insert still paid to build the tsvector and update the index.
 */
export const dropFullTextColumns: Migration = {
  name: 'DropFullTextColumns1700000000007',
  up: async (tx) => {
    await tx.exec(
      TABLES.map(
        (table) => `DROP INDEX IF EXISTS ${table}_tsv_gin;
        ALTER TABLE ${table} DROP COLUMN IF EXISTS tsv;`,
      ).join('\n'),
    );
  },
};
