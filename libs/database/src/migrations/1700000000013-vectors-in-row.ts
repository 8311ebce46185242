import { type Migration } from './migration';

// Literal names: a migration is a frozen snapshot and must not follow later renames.
const VECTOR_TABLES = ['podium_conversations', 'kb_source_chunks', 'kb_topic_summaries'];

/** The largest tuple Postgres keeps whole (TOAST_TUPLE_TARGET_MAIN on 8 KB pages). */
const WHOLE_ROW_BYTES = 8160;

/**
 * Rows kept whole, vector and text in the heap, instead of TOAST's side table. A 512-d vector
 * (the local embedder's, 2 KB) with its text passed the default 2 KB threshold, so every
 * vector went out of line: each read of one (the lexical leg's cosine, a small contact's exact
 * sort) fetched it back through the TOAST index, and the planner, which does not cost that,
 * chose a sequential scan over the HNSW index for small LIMITs (`/search` at 10k windows:
 * 52 ms instead of 4). Rows now go to TOAST only past a page; the vector (`STORAGE MAIN`)
 * stays in the row even then, the text is compressed or moved first. New rows only:
 * `VACUUM FULL` rewrites the old ones (docs/operations.md).
 */
export const vectorsInRow: Migration = {
  name: 'VectorsInRow1700000000013',
  up: (tx) =>
    tx.exec(
      VECTOR_TABLES.map(
        (t) => `ALTER TABLE ${t} SET (toast_tuple_target = ${WHOLE_ROW_BYTES});
          ALTER TABLE ${t} ALTER COLUMN embedding SET STORAGE MAIN;`,
      ).join('\n'),
    ),
  down: (tx) =>
    tx.exec(
      VECTOR_TABLES.map(
        (t) => `ALTER TABLE ${t} RESET (toast_tuple_target);
          ALTER TABLE ${t} ALTER COLUMN embedding SET STORAGE EXTERNAL;`,
      ).join('\n'),
    ),
};
