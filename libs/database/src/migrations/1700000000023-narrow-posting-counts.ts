import { type SqlExecutor } from '../interfaces/sql-client.interface';
import { type Migration } from './migration';

// Literal names: a migration is a frozen snapshot and must not follow later renames.
const POSTINGS = [
  'podium_conversations_terms',
  'kb_source_chunks_terms',
  'kb_topic_summaries_terms',
] as const;

/** The largest smallint: a count past it is stored as it (see below). */
const SMALLINT_MAX = 32767;

/**
 * Postings tables up to this many rows (~18k windows) are rewritten in the step: a few seconds
 * under the table's lock. A larger one (a 100k-window store: 2.7M postings, over the 30 s
 * statement timeout on a loaded box; 1M windows: minutes during which a rolling upgrade's
 * older replicas cannot read postings) keeps 4-byte counts until an operator runs the
 * `ALTER TABLE` in a maintenance window (docs/operations.md). Both widths read and write alike.
 */
const REWRITE_ROWS = 500_000;

/**
 * How long the rewrite waits for a postings table's lock. While its ACCESS EXCLUSIVE request
 * waits (behind a long reader: a backup's `pg_dump`, an older replica's transaction), every
 * later read of the table queues behind it on every replica; without the statement timeout
 * nothing else ends that wait. A table not had in time keeps 4-byte counts, as a large one.
 */
const LOCK_WAIT = '5s';
/** Postgres's `lock_not_available`: `lock_timeout` passed. */
const LOCK_NOT_AVAILABLE = '55P03';

/**
 * A posting's term frequency and document length as `smallint` (issue 42: bytes per window).
 * Both are stored three times per posting (the table and its two covering indexes), and a
 * window's counts are small (a 256-d load of 30k windows: tf ≤ 9, length ≤ 86); 2 bytes less
 * each packs the row and the `(term, impact)` entries into one 8-byte alignment step less
 * about half the time: −15 bytes a posting, ~−420 a window, built fresh on a 500k-posting
 * sample (heap −8%, `(term, impact)` −11%, `(contact, term, impact)` −4%).
 * A window of six 20,000-character messages can hold more terms than a smallint: such a count
 * is stored as 32,767 (BM25 saturates in tf, and a length that long already weighs the
 * document down to nothing), here and on every later insert (row-writes.ts), so no write fails.
 */
export const narrowPostingCounts: Migration = {
  name: 'NarrowPostingCounts1700000000023',
  up: async (tx) => {
    for (const table of POSTINGS) {
      if (!(await holdsAtMost(tx, table, REWRITE_ROWS))) {
        continue;
      }
      await narrowUnlessBusy(tx, table);
    }
  },
};

/** The rewrite, or nothing when the table's lock is not had within {@link LOCK_WAIT}. */
async function narrowUnlessBusy(tx: SqlExecutor, table: string): Promise<void> {
  // A savepoint: a lock timeout then undoes this table's attempt (and its settings) alone.
  await tx.exec(`SAVEPOINT narrow_postings`);
  try {
    await tx.exec(`
      SET LOCAL lock_timeout = '${LOCK_WAIT}';
      SET LOCAL statement_timeout = 0;
      ALTER TABLE ${table}
        ALTER COLUMN tf TYPE smallint USING least(tf, ${SMALLINT_MAX}),
        ALTER COLUMN doc_len TYPE smallint USING least(doc_len, ${SMALLINT_MAX});
      SET LOCAL statement_timeout = DEFAULT;
      SET LOCAL lock_timeout = DEFAULT;`);
  } catch (error: unknown) {
    if ((error as { code?: unknown } | null)?.code !== LOCK_NOT_AVAILABLE) {
      throw error;
    }
    await tx.exec(`ROLLBACK TO SAVEPOINT narrow_postings`);
  }
  await tx.exec(`RELEASE SAVEPOINT narrow_postings`);
}

/** A count that stops at `limit` + 1, so a large table costs no more than a small one. */
async function holdsAtMost(tx: SqlExecutor, table: string, limit: number): Promise<boolean> {
  const [{ rows }] = await tx.query<{ rows: number }>(
    `SELECT count(*)::int AS rows FROM (SELECT 1 FROM ${table} LIMIT ${limit + 1}) s`,
  );
  return rows <= limit;
}
