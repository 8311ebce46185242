import { type SqlExecutor } from '../interfaces/sql-client.interface';
import { type Migration } from './migration';

// Literal names: a migration is a frozen snapshot and must not follow later renames.
const VECTOR_TABLES = ['podium_conversations', 'kb_source_chunks', 'kb_topic_summaries'];

/** The largest tuple Postgres keeps whole (TOAST_TUPLE_TARGET_MAIN on 8 KB pages). */
const WHOLE_ROW_BYTES = 8160;

/**
 * Tables up to this many rows are rewritten in the step: the stores on which the planner
 * preferred the sequential scan (docs/operations.md). The rewrite rebuilds the table's HNSW
 * index under its lock, and on PGlite must end well inside the client's statement timeout,
 * which cannot cancel it. Larger tables keep their old rows until an operator's `VACUUM FULL`.
 */
const REWRITE_ROWS = 16_000;

/**
 * Rows kept whole, vector and text in the heap, instead of TOAST's side table. A 512-d vector
 * (the local embedder's, 2 KB) with its text passed the default 2 KB threshold, so every
 * vector went out of line: each read of one (the lexical leg's cosine, a small contact's exact
 * sort) fetched it back through the TOAST index, and the planner, which does not cost that,
 * chose a sequential scan over the HNSW index for small LIMITs on small stores (measured in
 * docs/benchmarks.md). Rows now go to TOAST only past a page; the vector (`STORAGE MAIN`)
 * stays in the row even then, and the text is compressed or moved first.
 */
export const vectorsInRow: Migration = {
  name: 'VectorsInRow1700000000013',
  up: async (tx) => {
    for (const table of VECTOR_TABLES) {
      await tx.exec(`ALTER TABLE ${table} SET (toast_tuple_target = ${WHOLE_ROW_BYTES});
        ALTER TABLE ${table} ALTER COLUMN embedding SET STORAGE MAIN;`);
      if (await holdsAtMost(tx, table, REWRITE_ROWS)) {
        // A rewrite runs every row through the toaster again, which brings vectors back in.
        // Not left marked as clustered: a later database-wide CLUSTER would rewrite it again.
        await tx.exec(`SET LOCAL statement_timeout = 0;
          CLUSTER ${table} USING ${table}_pkey;
          ALTER TABLE ${table} SET WITHOUT CLUSTER;
          SET LOCAL statement_timeout = DEFAULT;`);
      }
    }
  },
  down: (tx) =>
    tx.exec(
      VECTOR_TABLES.map(
        (t) => `ALTER TABLE ${t} RESET (toast_tuple_target);
          ALTER TABLE ${t} ALTER COLUMN embedding SET STORAGE EXTERNAL;`,
      ).join('\n'),
    ),
};

/** A count that stops at `limit` + 1, so a large table costs no more than a small one. */
async function holdsAtMost(tx: SqlExecutor, table: string, limit: number): Promise<boolean> {
  const [{ rows }] = await tx.query<{ rows: number }>(
    `SELECT count(*)::int AS rows FROM (SELECT 1 FROM ${table} LIMIT ${limit + 1}) s`,
  );
  return rows <= limit;
}
