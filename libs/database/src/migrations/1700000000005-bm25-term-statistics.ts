import { termFrequencies } from '@app/common';

import { type SqlExecutor } from '../interfaces/sql-client.interface';
import { type Migration } from './migration';

// Literal names: a migration is a frozen snapshot and must not follow later renames.
const TABLES = {
  conversations: 'podium_conversations',
  source_chunks: 'kb_source_chunks',
  topic_summaries: 'kb_topic_summaries',
} as const;

/** Rows backfilled per statement: bounded memory on a large history. */
const BACKFILL_BATCH = 500;

/**
 * BM25 for the pgvector store: each row's term counts (`<table>_terms`, the postings), its
 * length in terms (`term_count`), and per collection the document frequency of every term
 * and the document and term totals (`lexical_term_stats`, `lexical_doc_stats`). Statement
 * triggers keep the collection totals exact on insert and on every delete (a contact's
 * removal, a topic's replacement, and the postings' cascade), whoever issues it; per-contact
 * statistics are computed at query time from the postings, so a reassignment needs nothing.
 * Terms come from the normaliser in `@app/common`, which the Qdrant store shares.
 */
export const bm25TermStatistics: Migration = {
  name: 'Bm25TermStatistics1700000000005',
  up: async (tx) => {
    await tx.exec(`
      CREATE TABLE lexical_term_stats (collection text NOT NULL, term text NOT NULL,
        df int NOT NULL, PRIMARY KEY (collection, term));
      CREATE TABLE lexical_doc_stats (collection text PRIMARY KEY, docs bigint NOT NULL,
        terms bigint NOT NULL);
      INSERT INTO lexical_doc_stats (collection, docs, terms)
        VALUES ('conversations', 0, 0), ('source_chunks', 0, 0), ('topic_summaries', 0, 0);

      -- ORDER BY term: concurrent ingests lock the shared rows in one order (no deadlock).
      CREATE FUNCTION lexical_terms_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO lexical_term_stats (collection, term, df)
          SELECT TG_ARGV[0], term, count(*) FROM added GROUP BY term ORDER BY term
          ON CONFLICT (collection, term) DO UPDATE SET df = lexical_term_stats.df + excluded.df;
        RETURN NULL;
      END $$;
      CREATE FUNCTION lexical_terms_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE lexical_term_stats s SET df = s.df - r.n
          FROM (SELECT term, count(*) AS n FROM removed GROUP BY term) r
          WHERE s.collection = TG_ARGV[0] AND s.term = r.term;
        DELETE FROM lexical_term_stats WHERE collection = TG_ARGV[0] AND df <= 0;
        RETURN NULL;
      END $$;
      CREATE FUNCTION lexical_docs_added() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE lexical_doc_stats SET docs = docs + (SELECT count(*) FROM added),
          terms = terms + (SELECT coalesce(sum(term_count), 0) FROM added)
          WHERE collection = TG_ARGV[0];
        RETURN NULL;
      END $$;
      CREATE FUNCTION lexical_docs_removed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE lexical_doc_stats SET docs = docs - (SELECT count(*) FROM removed),
          terms = terms - (SELECT coalesce(sum(term_count), 0) FROM removed)
          WHERE collection = TG_ARGV[0];
        RETURN NULL;
      END $$;`);
    for (const [collection, table] of Object.entries(TABLES)) {
      await tx.exec(`
        ALTER TABLE ${table} ADD COLUMN term_count int NOT NULL DEFAULT 0;
        CREATE TABLE ${table}_terms (
          doc_id uuid NOT NULL REFERENCES ${table} (id) ON DELETE CASCADE,
          term text NOT NULL,
          tf int NOT NULL,
          PRIMARY KEY (doc_id, term));
        -- Unfiltered searches find a term's postings here; filtered ones go by doc_id.
        CREATE INDEX ${table}_terms_term ON ${table}_terms (term);
        CREATE TRIGGER ${table}_terms_added AFTER INSERT ON ${table}_terms
          REFERENCING NEW TABLE AS added FOR EACH STATEMENT
          EXECUTE FUNCTION lexical_terms_added('${collection}');
        CREATE TRIGGER ${table}_terms_removed AFTER DELETE ON ${table}_terms
          REFERENCING OLD TABLE AS removed FOR EACH STATEMENT
          EXECUTE FUNCTION lexical_terms_removed('${collection}');
        CREATE TRIGGER ${table}_docs_added AFTER INSERT ON ${table}
          REFERENCING NEW TABLE AS added FOR EACH STATEMENT
          EXECUTE FUNCTION lexical_docs_added('${collection}');
        CREATE TRIGGER ${table}_docs_removed AFTER DELETE ON ${table}
          REFERENCING OLD TABLE AS removed FOR EACH STATEMENT
          EXECUTE FUNCTION lexical_docs_removed('${collection}');`);
      await backfill(tx, collection, table);
    }
  },
};

/** Term counts for the rows stored before this migration, in id order, a batch at a time. */
async function backfill(tx: SqlExecutor, collection: string, table: string): Promise<void> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await tx.query<{ id: string; content: string }>(
      `SELECT id, content FROM ${table} WHERE id > $1 ORDER BY id LIMIT $2`,
      [after, BACKFILL_BATCH],
    );
    if (rows.length === 0) {
      break;
    }
    const docIds: string[] = [];
    const termList: string[] = [];
    const tfs: number[] = [];
    const lengths: number[] = [];
    let total = 0;
    for (const row of rows) {
      const { length, tf } = termFrequencies(row.content);
      lengths.push(length);
      total += length;
      for (const [term, count] of tf) {
        docIds.push(row.id);
        termList.push(term);
        tfs.push(count);
      }
    }
    await tx.execute(
      `UPDATE ${table} t SET term_count = u.n FROM unnest($1::uuid[], $2::int[]) AS u(id, n)
       WHERE t.id = u.id`,
      [rows.map((r) => r.id), lengths],
    );
    await tx.execute(
      `INSERT INTO ${table}_terms (doc_id, term, tf)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::int[])`,
      [docIds, termList, tfs],
    );
    // Rows inserted before the triggers existed: count them into the collection totals here.
    await tx.execute(
      `UPDATE lexical_doc_stats SET docs = docs + $2, terms = terms + $3 WHERE collection = $1`,
      [collection, rows.length, total],
    );
    after = rows[rows.length - 1].id;
  }
}
