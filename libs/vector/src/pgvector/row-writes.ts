import { type SqlExecutor } from '@app/database';

import {
  type CollectionName,
  type UpsertResult,
  type VectorRecord,
} from '../interfaces/vector-store.interface';
import { postingsOf } from './bm25';
import { toVectorLiteral } from './row-sql';
import { PAYLOAD_COLUMNS, TABLES } from './tables';

/**
 * Rows (with ~30 postings each) one maintenance transaction deletes. Embedded PGlite has one
 * session that every search queues behind, so its batches are smaller: at 1,000, /context
 * calls during a purge waited up to ~0.7 s (bench:scale on PGlite, docs/benchmarks.md).
 */
export const DELETE_BATCH = { postgres: 1000, pglite: 200 } as const;

/**
 * A posting's tf and document length are `smallint` (migration 23): a longer window's count is
 * stored as this, so a hostile 120,000-character window is written, not refused.
 */
const SMALLINT_MAX = 32767;

/**
 * Inserts the rows that are new, with their BM25 postings, in one statement.
 */
export async function insertRows<C extends CollectionName>(
  executor: SqlExecutor,
  collection: C,
  records: VectorRecord<C>[],
): Promise<UpsertResult> {
  if (records.length === 0) {
    return { inserted: 0, skipped: 0 };
  }
  const columns = PAYLOAD_COLUMNS[collection];
  const payloadRows = records.map((r) => r.payload as unknown as Record<string, unknown>);
  const params: unknown[] = [
    records.map((r) => r.id),
    records.map((r) => r.content),
    records.map((r) => toVectorLiteral(r.embedding)),
    ...columns.map(([name]) => payloadRows.map((p) => p[name] ?? null)),
  ];
  const names = columns.map(([name]) => name);
  const unnestArgs = [
    '$1::uuid[]',
    '$2::text[]',
    '$3::text[]',
    ...columns.map(([, type], i) => `$${i + 4}::${type}[]`),
  ];
  const postings = postingsOf(records);
  const contact = collection === 'conversations' ? ', contact_uid' : '';
  const first = params.length;
  params.push(postings.lengths, postings.docIds, postings.terms, postings.tfs);
  // One statement: the row and its BM25 postings, only for rows that were new (the FK
  // from postings to rows is checked at the statement's end, after both CTEs ran).
  // Arrays of text cast per element: `$n::vector[]` is rejected as a malformed array literal.
  // Raw: an unnest() bulk insert whose ON CONFLICT DO NOTHING … RETURNING feeds the postings.
  const inserted: Array<{ id: string }> = await executor.query(
    `WITH rows AS (
       INSERT INTO ${TABLES[collection]} (id, content, embedding, term_count, ${names.join(', ')})
       SELECT id, content, embedding::vector, term_count, ${names.join(', ')}
       FROM unnest(${unnestArgs.join(', ')}, $${first + 1}::int[])
         AS t(id, content, embedding, ${names.join(', ')}, term_count)
       ON CONFLICT (id) DO NOTHING RETURNING id, term_count${contact}),
     postings AS (
       INSERT INTO ${TABLES[collection]}_terms (doc_id, term, tf, doc_len, impact, contact_uid)
       SELECT p.doc_id, p.term, least(p.tf, ${SMALLINT_MAX}), least(rows.term_count, ${SMALLINT_MAX}),
         posting_impact(p.tf, rows.term_count),
         ${collection === 'conversations' ? 'rows.contact_uid' : 'NULL'}
       FROM unnest($${first + 2}::uuid[], $${first + 3}::text[], $${first + 4}::int[])
         AS p(doc_id, term, tf) JOIN rows ON rows.id = p.doc_id)
     SELECT id FROM rows`,
    params,
  );
  return { inserted: inserted.length, skipped: records.length - inserted.length };
}

/**
 * Deletes rows by id, their postings first in one statement: the FK cascade would delete
 * them row by row, firing the statistics triggers once per row instead of once.
 */
export async function deleteRows(
  tx: SqlExecutor,
  collection: CollectionName,
  ids: string[],
  keep: string[] = [],
): Promise<number> {
  const table = TABLES[collection];
  const params = [ids, keep];
  // Raw: id-array deletes with an exclusion list, bounded by the caller's batch.
  const [{ terms }] = await tx.query<{ terms: string[] }>(
    `WITH gone AS (DELETE FROM ${table}_terms
       WHERE doc_id = ANY($1::uuid[]) AND NOT (doc_id = ANY($2::uuid[])) RETURNING term)
     SELECT coalesce(array_agg(DISTINCT term), '{}') AS terms FROM gone`,
    params,
  );
  await dropSpentTerms(tx, collection, terms);
  return tx.execute(
    `DELETE FROM ${table} WHERE id = ANY($1::uuid[]) AND NOT (id = ANY($2::uuid[]))`,
    params,
  );
}

/**
 * The collection statistics of terms no document holds any more: their shards sum to zero,
 * but the rows would keep the words of a deleted (forgotten, expired) text for good. Never
 * waits (SKIP LOCKED): a term is dropped only when every one of its shards could be locked,
 * so it never deadlocks with a concurrent writer's own shard; that writer's deletion, if it is
 * one, drops the term after it.
 */
async function dropSpentTerms(
  tx: SqlExecutor,
  collection: CollectionName,
  terms: readonly string[],
): Promise<void> {
  if (terms.length === 0) {
    return;
  }
  // Raw: a non-blocking locking CTE over the term shards feeding a DELETE … USING.
  await tx.execute(
    `WITH locked AS (SELECT term, shard, df FROM lexical_term_stats
       WHERE collection = $1 AND term = ANY($2::text[]) FOR UPDATE SKIP LOCKED),
     shards AS (SELECT term, count(*) AS n FROM lexical_term_stats
       WHERE collection = $1 AND term = ANY($2::text[]) GROUP BY term),
     spent AS (SELECT l.term FROM locked l JOIN shards USING (term)
       GROUP BY l.term, shards.n HAVING sum(l.df) = 0 AND count(*) = shards.n)
     DELETE FROM lexical_term_stats s USING locked l JOIN spent USING (term)
     WHERE s.collection = $1 AND s.term = l.term AND s.shard = l.shard`,
    [collection, terms],
  );
}

/**
 * A merge: the rows, their postings and the contact's BM25 statistics follow the survivor.
 * The rows join it now (`stored_at`): a forget of the survivor from before does not hide them.
 */
export async function moveContactRows(tx: SqlExecutor, from: string, to: string): Promise<number> {
  const table = TABLES.conversations;
  // Raw: UPDATEs of the collection's tables; the statistics below move by DELETE … RETURNING
  // into an additive ON CONFLICT upsert.
  const rows = await tx.execute(
    `UPDATE ${table} SET contact_uid = $2, stored_at = now() WHERE contact_uid = $1`,
    [from, to],
  );
  await tx.execute(`UPDATE ${table}_terms SET contact_uid = $2 WHERE contact_uid = $1`, [from, to]);
  await tx.execute(
    `WITH gone AS (DELETE FROM lexical_contact_stats WHERE contact_uid = $1 RETURNING docs, terms)
     INSERT INTO lexical_contact_stats (contact_uid, docs, terms)
       SELECT $2, docs, terms FROM gone
     ON CONFLICT (contact_uid) DO UPDATE SET docs = lexical_contact_stats.docs + excluded.docs,
       terms = lexical_contact_stats.terms + excluded.terms`,
    [from, to],
  );
  await tx.execute(
    `WITH gone AS (DELETE FROM lexical_contact_term_stats WHERE contact_uid = $1
       RETURNING term, df)
     INSERT INTO lexical_contact_term_stats (contact_uid, term, df)
       SELECT $2, term, df FROM gone ORDER BY term
     ON CONFLICT (contact_uid, term)
       DO UPDATE SET df = lexical_contact_term_stats.df + excluded.df`,
    [from, to],
  );
  return rows;
}
