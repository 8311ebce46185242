import { type Database, type SqlExecutor, type StoreModel, vectorColumnType } from '@app/database';
import { TABLES } from '@app/vector';

/** Every table with an `embedding` column, in the order a reembed walks them. */
export const VECTOR_TABLES: readonly string[] = Object.values(TABLES);

/** The shadow column the target model's vectors are written to until the switch. */
export const SHADOW_COLUMN = 'embedding_next';

/** The lock CREATE INDEX CONCURRENTLY takes turns on (two on one table deadlock). */
const INDEX_BUILD_LOCK = `hashtext('context_bridge:large_contact_indexes')`;

const shadowIndex = (table: string) => `${table}_${SHADOW_COLUMN}_hnsw`;

/**
 * Adds the shadow column (sized for the target; `halfvec` over 2,000 dimensions), kept in
 * the row like `embedding` (migration 13), and the trigger that clears it when the service
 * rewrites a row's text or vector. Idempotent: a resumed run finds them in place.
 */
export async function addShadowColumns(tx: SqlExecutor, target: StoreModel): Promise<void> {
  const type = `${vectorColumnType(target.dimension)}(${target.dimension})`;
  for (const table of VECTOR_TABLES) {
    await tx.exec(`
      ALTER TABLE ${table} ADD COLUMN IF NOT EXISTS ${SHADOW_COLUMN} ${type};
      ALTER TABLE ${table} ALTER COLUMN ${SHADOW_COLUMN} SET STORAGE MAIN;
      CREATE OR REPLACE TRIGGER ${table}_reembed BEFORE UPDATE OF content, embedding ON ${table}
        FOR EACH ROW EXECUTE FUNCTION reembed_invalidate();`);
  }
}

/** The shadow column's type on `table` (`vector(96)`), or `null` when there is none. */
export async function shadowColumnType(db: SqlExecutor, table: string): Promise<string | null> {
  const [row] = await db.query<{ type: string }>(
    `SELECT format_type(atttypid, atttypmod) AS type FROM pg_attribute
     WHERE attrelid = to_regclass($1) AND attname = $2 AND NOT attisdropped`,
    [table, SHADOW_COLUMN],
  );
  return row?.type ?? null;
}

/** Up to `limit` rows still without a target vector, after `after` in id order. */
export function pendingRows(
  db: SqlExecutor,
  table: string,
  after: string,
  limit: number,
): Promise<Array<{ id: string; content: string }>> {
  return db.query(
    `SELECT id, content FROM ${table}
     WHERE id > $1 AND ${SHADOW_COLUMN} IS NULL ORDER BY id LIMIT $2`,
    [after, limit],
  );
}

/**
 * Writes target vectors (pgvector text literals). A row whose text changed since it was read
 * is left for the next pass: its vector would be of the old text.
 */
export function writeTargetVectors(
  db: SqlExecutor,
  table: string,
  rows: Array<{ id: string; content: string }>,
  literals: string[],
): Promise<number> {
  return db.execute(
    `UPDATE ${table} t SET ${SHADOW_COLUMN} = x.v::vector
     FROM unnest($1::uuid[], $2::text[], $3::text[]) AS x(id, content, v)
     WHERE t.id = x.id AND t.content = x.content`,
    [rows.map((r) => r.id), rows.map((r) => r.content), literals],
  );
}

/** Rows of `table` still without a target vector. */
export async function countPending(db: SqlExecutor, table: string): Promise<number> {
  const [row] = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${table} WHERE ${SHADOW_COLUMN} IS NULL`,
  );
  return row?.n ?? 0;
}

/**
 * Builds the shadow column's HNSW index, after the backfill (an index in place makes each
 * write about 8× dearer). On a server CONCURRENTLY, so ingest goes on; one index build at a
 * time across the service (the large-contact indexes take the same lock). A build a kill cut
 * short leaves an invalid index, dropped and built again here.
 */
export async function buildShadowIndexes(database: Database, target: StoreModel): Promise<void> {
  const concurrently = database.engine === 'postgres' ? 'CONCURRENTLY' : '';
  const opclass = `${vectorColumnType(target.dimension)}_cosine_ops`;
  await database.session(async (s) => {
    // One core for the build: a parallel build would take every core the replicas serve on.
    await s.exec(`SET statement_timeout = 0; SET max_parallel_maintenance_workers = 0`);
    await s.query(`SELECT pg_advisory_lock(${INDEX_BUILD_LOCK})`);
    try {
      for (const table of VECTOR_TABLES) {
        const [index] = await s.query<{ valid: boolean }>(
          `SELECT i.indisvalid AS valid FROM pg_index i WHERE i.indexrelid = to_regclass($1)`,
          [shadowIndex(table)],
        );
        if (index?.valid) {
          continue;
        }
        await s.exec(`DROP INDEX ${concurrently} IF EXISTS ${shadowIndex(table)}`);
        await s.exec(
          `CREATE INDEX ${concurrently} ${shadowIndex(table)} ON ${table}
           USING hnsw (${SHADOW_COLUMN} ${opclass})`,
        );
      }
    } finally {
      await s.query(`SELECT pg_advisory_unlock(${INDEX_BUILD_LOCK})`);
    }
  });
}

/**
 * The switch, inside the transaction that also fills the last rows: the shadow column takes
 * the name `embedding` (the old column and its indexes go), the record names the new model,
 * and the run's row goes. Readers wait only for the renames (ACCESS EXCLUSIVE, no rewrite).
 * Per-contact HNSW indexes went with the old column: their registry is cleared, so the
 * service's maintenance builds them again on the new one.
 */
export async function switchColumns(tx: SqlExecutor, target: StoreModel): Promise<void> {
  for (const table of VECTOR_TABLES) {
    await tx.exec(`
      DROP TRIGGER IF EXISTS ${table}_reembed ON ${table};
      ALTER TABLE ${table} DROP COLUMN embedding;
      ALTER TABLE ${table} RENAME COLUMN ${SHADOW_COLUMN} TO embedding;
      ALTER TABLE ${table} ALTER COLUMN embedding SET NOT NULL;
      ALTER INDEX ${shadowIndex(table)} RENAME TO ${table}_embedding_hnsw;`);
  }
  await tx.execute(`DELETE FROM large_contact_indexes`);
  await tx.execute(
    `UPDATE embedding_model SET provider = $1, model = $2, dimension = $3, recorded_at = now()`,
    [target.provider, target.model, target.dimension],
  );
  await tx.execute(`DELETE FROM embedding_reembed`);
}

/** Writers wait (readers do not) while the last rows are filled and the columns switched. */
export function holdWriters(tx: SqlExecutor): Promise<void> {
  return tx.exec(`LOCK TABLE ${VECTOR_TABLES.join(', ')} IN SHARE ROW EXCLUSIVE MODE`);
}
