import { types } from 'node:util';

import { type Database, type SqlExecutor } from '@app/database';

import {
  type CollectionName,
  type DenseQuery,
  type HybridQuery,
  type HybridResult,
  type LexicalQuery,
  type UpsertResult,
  type VectorFilter,
  type VectorHit,
  type VectorRecord,
  type VectorStore,
  type WindowRemoval,
} from '../interfaces/vector-store.interface';
import { bm25Ctes, postingsOf, queryTerms } from './bm25';
import { PAYLOAD_COLUMNS, TABLES } from './tables';

type Row = { id: string; content: string; score: number } & Record<string, unknown>;

/** pgvector's text format; six decimals parse ~1.7× faster in WASM and lose nothing useful. */
const toVectorLiteral = (v: number[]) => `[${v.map((x) => x.toFixed(6)).join(',')}]`;

/**
 * A query vector as a binary parameter (pgvector's `vector_recv` format: int16 dimension,
 * int16 unused, float4s, big-endian). Both drivers send a Buffer in binary; skipping the
 * text round trip (512 numbers formatted here, parsed by the server) cut the /context search
 * statement from 1.8 to 1.2 ms on PGlite. Upserts keep the text form (`text[]` + `unnest`).
 */
function toVectorParam(v: readonly number[]): Buffer {
  const out = Buffer.allocUnsafe(4 + 4 * v.length);
  out.writeInt16BE(v.length, 0);
  out.writeInt16BE(0, 2);
  v.forEach((x, i) => out.writeFloatBE(x, 4 + 4 * i));
  return out;
}

/** The pgvector provider: Postgres tables with HNSW, a btree per contact, and BM25 postings. */
export class PgVectorStore implements VectorStore {
  constructor(private readonly database: Database) {}

  /**
   * Joins the database's open (in the app, `DatabaseModule` starts it at module init), or
   * opens it: it checks the stored dimension and migrates. A failed open is retried here too.
   */
  async init(dimension: number): Promise<void> {
    await this.database.open(dimension);
  }

  async upsert<C extends CollectionName>(
    collection: C,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult> {
    return this.insert(this.database, collection, records);
  }

  async replaceTopic<C extends 'source_chunks' | 'topic_summaries'>(
    collection: C,
    topicId: string,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult> {
    return this.database.transaction(async (tx) => {
      await tx.execute(
        `DELETE FROM ${TABLES[collection]} WHERE topic_id = $1 AND NOT (id = ANY($2::uuid[]))`,
        [topicId, records.map((r) => r.id)],
      );
      return this.insert(tx, collection, records);
    });
  }

  async replaceWindows(
    records: VectorRecord<'conversations'>[],
    removal: WindowRemoval,
  ): Promise<UpsertResult> {
    const table = TABLES.conversations;
    const keep = records.map((r) => r.id);
    if ('keep' in removal) {
      keep.push(...removal.keep);
    }
    return this.database.transaction(async (tx) => {
      if ('ids' in removal) {
        if (removal.ids.length) {
          await tx.execute(
            `DELETE FROM ${table} WHERE id = ANY($1::uuid[]) AND NOT (id = ANY($2::uuid[]))`,
            [removal.ids, keep],
          );
        }
      } else if (removal.allOtherWindowsOf.length) {
        await tx.execute(
          `DELETE FROM ${table} t USING unnest($1::text[], $2::text[]) AS k(contact, conversation)
           WHERE t.contact_uid = k.contact AND t.conversation_uid = k.conversation
             AND NOT (t.id = ANY($3::uuid[]))`,
          [
            removal.allOtherWindowsOf.map((k) => k.contact_uid),
            removal.allOtherWindowsOf.map((k) => k.conversation_uid),
            keep,
          ],
        );
      }
      return this.insert(tx, 'conversations', records);
    });
  }

  async search<C extends CollectionName>(
    collection: C,
    query: DenseQuery,
  ): Promise<VectorHit<C>[]> {
    const params: unknown[] = [toVectorParam(query.embedding), query.topK];
    const where = this.whereClause(query.filter, params);
    const threshold =
      query.scoreThreshold === undefined
        ? ''
        : `WHERE score >= $${params.push(query.scoreThreshold)}`;
    const table = TABLES[collection];
    const columns = this.selectList(collection);
    // The query vector is parsed once (a CTE): repeating `$1::vector` in the select list and
    // ORDER BY re-parses 512 floats per use, which measured 21 ms against 3.4 ms per query.
    // With a filter, ordering by the computed score forces btree + exact sort (a filtered
    // HNSW scan can silently return fewer than topK rows); unfiltered queries order by the
    // operator against an InitPlan param, which the HNSW index serves.
    const sql = where
      ? `WITH q AS (SELECT $1::vector AS v)
         SELECT * FROM (SELECT ${columns}, 1 - (embedding <=> q.v) AS score
           FROM ${table}, q ${where} ORDER BY score DESC, id LIMIT $2) hits ${threshold}`
      : `WITH q AS (SELECT $1::vector AS v)
         SELECT * FROM (SELECT ${columns}, 1 - (embedding <=> (SELECT v FROM q)) AS score
           FROM ${table} ORDER BY embedding <=> (SELECT v FROM q) LIMIT $2) hits ${threshold}`;
    return this.toHits(
      collection,
      await this.db.queryPrepared<Row>(sql, params, { signal: query.signal }),
    );
  }

  async lexicalSearch<C extends CollectionName>(
    collection: C,
    query: LexicalQuery,
  ): Promise<VectorHit<C>[]> {
    const terms = queryTerms(query.text);
    if (terms.length === 0) {
      return [];
    }
    const params: unknown[] = [terms, query.topK];
    const where = this.whereClause(query.filter, params);
    const similarity = query.embedding
      ? `, 1 - (embedding <=> (SELECT $${params.push(toVectorParam(query.embedding))}::vector)) AS similarity`
      : '';
    const bm25 = bm25Ctes({
      collection,
      where,
      perContact: query.filter?.contact_uid !== undefined,
      termsParam: '$1',
      limitParam: '$2',
    });
    const sql = `WITH ${bm25}
      SELECT ${this.selectList(collection)}, bm25.score${similarity}
      FROM bm25 JOIN ${TABLES[collection]} t ON t.id = bm25.doc_id
      ORDER BY bm25.score DESC, t.id`;
    return this.toHits(
      collection,
      await this.db.queryPrepared<Row>(sql, params, { signal: query.signal }),
    );
  }

  async hybridSearch<C extends CollectionName>(
    collection: C,
    query: HybridQuery,
  ): Promise<HybridResult<C>> {
    const params: unknown[] = [
      toVectorParam(query.embedding),
      query.topK,
      queryTerms(query.text),
    ];
    const where = this.whereClause(query.filter, params);
    const table = TABLES[collection];
    const columns = this.selectList(collection);
    const denseOrder = where
      ? 'ORDER BY score DESC, id'
      : 'ORDER BY embedding <=> (SELECT v FROM q)';
    const bm25 = bm25Ctes({
      collection,
      where,
      perContact: query.filter?.contact_uid !== undefined,
      termsParam: '$3',
      limitParam: '$2',
    });
    // One statement, one parse of the query vector: each PGlite round trip costs ~1.5 ms of
    // the event loop's time, and this runs on every /context turn. No query terms (only stop
    // words) leave the BM25 CTEs empty, so the lexical list is simply empty.
    const sql = `
      WITH q AS (SELECT $1::vector AS v),
      dense AS (SELECT 'dense' AS list, ${columns}, 1 - (embedding <=> q.v) AS score, NULL::float8 AS similarity
        FROM ${table}, q ${where} ${denseOrder} LIMIT $2),
      ${bm25},
      lexical AS (SELECT 'lexical' AS list, ${columns}, bm25.score::float8 AS score,
          1 - (embedding <=> q.v) AS similarity
        FROM bm25 JOIN ${table} t ON t.id = bm25.doc_id, q ORDER BY bm25.score DESC, t.id)
      SELECT * FROM dense UNION ALL SELECT * FROM lexical`;
    const rows = await this.db.queryPrepared<Row & { list: 'dense' | 'lexical' }>(sql, params, {
      signal: query.signal,
    });
    return {
      dense: this.toHits(
        collection,
        rows.filter((r) => r.list === 'dense'),
      ),
      lexical: this.toHits(
        collection,
        rows.filter((r) => r.list === 'lexical'),
      ),
    };
  }

  async existingIds(collection: CollectionName, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) {
      return new Set();
    }
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM ${TABLES[collection]} WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  async count(collection: CollectionName): Promise<number> {
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${TABLES[collection]}`,
    );
    return row.n;
  }

  async deleteContact(contactUid: string, locationUids?: string[]): Promise<number> {
    return locationUids
      ? this.db.execute(
          `DELETE FROM ${TABLES.conversations} WHERE contact_uid = $1 AND location_uid = ANY($2::text[])`,
          [contactUid, locationUids],
        )
      : this.db.execute(`DELETE FROM ${TABLES.conversations} WHERE contact_uid = $1`, [contactUid]);
  }

  async reassignContact(fromContactUid: string, toContactUid: string): Promise<number> {
    return this.db.execute(
      `UPDATE ${TABLES.conversations} SET contact_uid = $2 WHERE contact_uid = $1`,
      [fromContactUid, toContactUid],
    );
  }

  /** Bytes on disk of the three tables with their indexes (benchmarks, operators). */
  async storageBytes(): Promise<number> {
    const [row] = await this.db.query<{ bytes: string }>(
      `SELECT sum(pg_total_relation_size(to_regclass(t)))::bigint AS bytes FROM unnest($1::text[]) AS t`,
      [Object.values(TABLES)],
    );
    return Number(row.bytes);
  }

  async isHealthy(): Promise<boolean> {
    try {
      await this.db.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /** The connection belongs to the Database, which closes it at shutdown. */
  async close(): Promise<void> {}

  private get db(): Pick<Database, keyof SqlExecutor | 'queryPrepared'> {
    return this.database;
  }

  private whereClause(filter: VectorFilter | undefined, params: unknown[]): string {
    const clauses: string[] = [];
    if (filter?.contact_uid !== undefined) {
      clauses.push(`contact_uid = $${params.push(filter.contact_uid)}`);
    }
    if (filter?.location_uids !== undefined) {
      clauses.push(`location_uid = ANY($${params.push(filter.location_uids)}::text[])`);
    }
    return clauses.length ? `WHERE ${clauses.join(' AND ')}` : '';
  }

  private selectList(collection: CollectionName): string {
    return ['id', 'content', ...PAYLOAD_COLUMNS[collection].map(([name]) => name)].join(', ');
  }

  private toHits<C extends CollectionName>(collection: C, rows: Row[]): VectorHit<C>[] {
    return rows.map((row) => {
      const payload: Record<string, unknown> = {};
      for (const [name] of PAYLOAD_COLUMNS[collection]) {
        const value = row[name];
        // isDate, not instanceof: rows from the PGlite worker thread carry its realm's Date.
        payload[name] = types.isDate(value) ? value.toISOString() : value;
      }
      const hit = {
        id: row.id,
        content: row.content,
        score: Number(row.score),
        payload,
      } as VectorHit<C>;
      if (row.similarity !== undefined && row.similarity !== null) {
        hit.similarity = Number(row.similarity);
      }
      return hit;
    });
  }

  private async insert<C extends CollectionName>(
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
    const first = params.length;
    params.push(postings.lengths, postings.docIds, postings.terms, postings.tfs);
    // One statement: the row and its BM25 postings, only for rows that were new (the FK
    // from postings to rows is checked at the statement's end, after both CTEs ran).
    // Arrays of text cast per element: `$n::vector[]` is rejected as a malformed array literal.
    const inserted: Array<{ id: string }> = await executor.query(
      `WITH rows AS (
         INSERT INTO ${TABLES[collection]} (id, content, embedding, term_count, ${names.join(', ')})
         SELECT id, content, embedding::vector, term_count, ${names.join(', ')}
         FROM unnest(${unnestArgs.join(', ')}, $${first + 1}::int[])
           AS t(id, content, embedding, ${names.join(', ')}, term_count)
         ON CONFLICT (id) DO NOTHING RETURNING id),
       postings AS (
         INSERT INTO ${TABLES[collection]}_terms (doc_id, term, tf)
         SELECT p.doc_id, p.term, p.tf
         FROM unnest($${first + 2}::uuid[], $${first + 3}::text[], $${first + 4}::int[])
           AS p(doc_id, term, tf) JOIN rows ON rows.id = p.doc_id)
       SELECT id FROM rows`,
      params,
    );
    return { inserted: inserted.length, skipped: records.length - inserted.length };
  }
}
