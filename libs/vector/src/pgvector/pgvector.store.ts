import { types } from 'node:util';

import { type Database, type SqlExecutor } from '@app/database';
import * as pgvector from 'pgvector';

import {
  type CollectionName,
  type ContactDeletion,
  type ContactDeletionOptions,
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
import { bm25Ctes, POSTINGS_PER_TERM, postingsOf, queryTerms } from './bm25';
import {
  type IndexSyncReport,
  LARGE_CONTACT_WINDOWS,
  LargeContactIndexes,
} from './large-contact-indexes';
import { PAYLOAD_COLUMNS, TABLES } from './tables';

type Row = { id: string; content: string; score: number } & Record<string, unknown>;

/**
 * Rows (with ~30 postings each) one maintenance transaction deletes. Embedded PGlite has one
 * session that every search queues behind, so its batches are smaller: at 1,000, /context
 * calls during a purge waited up to ~0.7 s (bench:scale on PGlite, docs/benchmarks.md).
 */
const DELETE_BATCH = { postgres: 1000, pglite: 200 } as const;

/** Placeholders of a query's filter values. */
interface FilterParams {
  contact?: string;
  locations?: string;
  /** The contact's id itself (the dense leg's plan depends on its history's size). */
  contactUid?: string;
}

/**
 * Forgotten windows every search skips until the background purge has deleted them (see
 * `hideContact`): a contact's own searches skip its windows up to the forget (one index probe,
 * evaluated once per statement); a search across contacts skips a contact being purged whole.
 */
const PURGES = 'podium_conversation_purges';
const visibleForContact = (contactParam: string, alias = '') =>
  `${alias}occurred_at > (SELECT coalesce(max(hidden_before), '-infinity'::timestamptz)
     FROM ${PURGES} WHERE contact_uid = ${contactParam})`;
const visibleAcrossContacts = (alias = '') =>
  `${alias}contact_uid <> ALL(ARRAY(SELECT contact_uid FROM ${PURGES}))`;

/**
 * pgvector's text format, by the `pgvector` package; rounded to six decimals first, which
 * parse ~1.7× faster in WASM and lose nothing useful.
 */
const toVectorLiteral = (v: number[]): string =>
  pgvector.toSql(v.map((x) => Math.round(x * 1e6) / 1e6)) as string;

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
  private readonly largeContacts: LargeContactIndexes;

  /**
   * `largeContactWindows`: above it a contact gets its own HNSW index; `postingsPerTerm`: the
   * lexical leg's read per query term (tests and benchmarks vary both).
   */
  constructor(
    private readonly database: Database,
    largeContactWindows = LARGE_CONTACT_WINDOWS,
    private readonly postingsPerTerm = POSTINGS_PER_TERM,
  ) {
    this.largeContacts = new LargeContactIndexes(database, largeContactWindows);
  }

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
          await this.deleteRows(tx, 'conversations', removal.ids, keep);
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
    const filter = this.filterParams(query.filter, params);
    const threshold =
      query.scoreThreshold === undefined
        ? ''
        : `WHERE score >= $${params.push(query.scoreThreshold)}`;
    const dense = await this.denseSql(collection, filter, '$2');
    const sql = `WITH q AS (SELECT $1::vector AS v), dense AS (${dense})
      SELECT * FROM dense ${threshold} ORDER BY score DESC, id`;
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
    const filter = this.filterParams(query.filter, params);
    const similarity = query.embedding
      ? `, 1 - (embedding <=> (SELECT $${params.push(toVectorParam(query.embedding))}::vector)) AS similarity`
      : '';
    const bm25 = bm25Ctes({
      collection,
      contactParam: filter.contact,
      locationsParam: filter.locations,
      termsParam: '$1',
      limitParam: '$2',
      postingsPerTerm: this.postingsPerTerm,
    });
    const sql = `WITH ${bm25}
      SELECT ${this.selectList(collection)}, bm25.score${similarity}
      FROM bm25 JOIN ${TABLES[collection]} t ON t.id = bm25.doc_id
      ${this.visibleRow(collection, filter)}
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
    const params: unknown[] = [toVectorParam(query.embedding), query.topK, queryTerms(query.text)];
    const filter = this.filterParams(query.filter, params);
    const table = TABLES[collection];
    const columns = this.selectList(collection);
    const dense = await this.denseSql(collection, filter, '$2');
    const bm25 = bm25Ctes({
      collection,
      contactParam: filter.contact,
      locationsParam: filter.locations,
      termsParam: '$3',
      limitParam: '$2',
      postingsPerTerm: this.postingsPerTerm,
    });
    // One statement, one parse of the query vector: each PGlite round trip costs ~1.5 ms of
    // the event loop's time, and this runs on every /context turn. No query terms (only stop
    // words) leave the BM25 CTEs empty, so the lexical list is simply empty.
    const sql = `
      WITH q AS (SELECT $1::vector AS v),
      dense AS (SELECT 'dense' AS list, d.*, NULL::float8 AS similarity FROM (${dense}) d
        ORDER BY d.score DESC, d.id),
      ${bm25},
      lexical AS (SELECT 'lexical' AS list, ${columns}, bm25.score::float8 AS score,
          1 - (embedding <=> q.v) AS similarity
        FROM bm25 JOIN ${table} t ON t.id = bm25.doc_id, q ${this.visibleRow(collection, filter)}
        ORDER BY bm25.score DESC, t.id)
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

  async hideContact(contactUid: string, before: Date): Promise<void> {
    await this.db.execute(
      `INSERT INTO ${PURGES} (contact_uid, hidden_before) VALUES ($1, $2)
       ON CONFLICT (contact_uid) DO UPDATE
         SET hidden_before = GREATEST(${PURGES}.hidden_before, EXCLUDED.hidden_before)`,
      [contactUid, before],
    );
  }

  /**
   * A contact's rows in batches of DELETE_BATCH (by engine), each its own short transaction,
   * so removing a history of any size never holds a long lock or runs one long statement; a
   * crash midway leaves a smaller history that the next call (forget is idempotent) finishes.
   * Done with a whole contact, it lifts what `hideContact` hid up to `before`.
   */
  async deleteContact(
    contactUid: string,
    locationUids?: string[],
    options: ContactDeletionOptions = {},
  ): Promise<ContactDeletion> {
    const params: unknown[] = [contactUid, DELETE_BATCH[this.database.engine]];
    const scope = [
      ...(locationUids ? [`location_uid = ANY($${params.push(locationUids)}::text[])`] : []),
      ...(options.before ? [`occurred_at <= $${params.push(options.before)}`] : []),
    ].map((condition) => ` AND ${condition}`);
    let removed = 0;
    for (;;) {
      if (options.signal?.aborted) {
        return { removed, complete: false };
      }
      const ids = await this.db.query<{ id: string }>(
        `SELECT id FROM ${TABLES.conversations} WHERE contact_uid = $1${scope.join('')} LIMIT $2`,
        params,
      );
      if (ids.length === 0) {
        break;
      }
      removed += await this.database.transaction((tx) =>
        this.deleteRows(
          tx,
          'conversations',
          ids.map((r) => r.id),
        ),
      );
    }
    if (!locationUids) {
      await this.db.execute(
        `DELETE FROM ${PURGES} WHERE contact_uid = $1
           AND ($2::timestamptz IS NULL OR hidden_before <= $2::timestamptz)`,
        [contactUid, options.before ?? null],
      );
    }
    this.largeContacts.forget(contactUid);
    return { removed, complete: true };
  }

  /**
   * Deletes rows by id, their postings first in one statement: the FK cascade would delete
   * them row by row, firing the statistics triggers once per row instead of once.
   */
  private async deleteRows(
    tx: SqlExecutor,
    collection: CollectionName,
    ids: string[],
    keep: string[] = [],
  ): Promise<number> {
    const table = TABLES[collection];
    const params = [ids, keep];
    await tx.execute(
      `DELETE FROM ${table}_terms WHERE doc_id = ANY($1::uuid[]) AND NOT (doc_id = ANY($2::uuid[]))`,
      params,
    );
    return tx.execute(
      `DELETE FROM ${table} WHERE id = ANY($1::uuid[]) AND NOT (id = ANY($2::uuid[]))`,
      params,
    );
  }

  /** A merge: the rows, their postings and the contact's BM25 statistics follow the survivor. */
  async reassignContact(fromContactUid: string, toContactUid: string): Promise<number> {
    const table = TABLES.conversations;
    const moved = await this.database.transaction(async (tx) => {
      const rows = await tx.execute(`UPDATE ${table} SET contact_uid = $2 WHERE contact_uid = $1`, [
        fromContactUid,
        toContactUid,
      ]);
      await tx.execute(`UPDATE ${table}_terms SET contact_uid = $2 WHERE contact_uid = $1`, [
        fromContactUid,
        toContactUid,
      ]);
      await tx.execute(
        `WITH gone AS (DELETE FROM lexical_contact_stats WHERE contact_uid = $1 RETURNING docs, terms)
         INSERT INTO lexical_contact_stats (contact_uid, docs, terms)
           SELECT $2, docs, terms FROM gone
         ON CONFLICT (contact_uid) DO UPDATE SET docs = lexical_contact_stats.docs + excluded.docs,
           terms = lexical_contact_stats.terms + excluded.terms`,
        [fromContactUid, toContactUid],
      );
      await tx.execute(
        `WITH gone AS (DELETE FROM lexical_contact_term_stats WHERE contact_uid = $1
           RETURNING term, df)
         INSERT INTO lexical_contact_term_stats (contact_uid, term, df)
           SELECT $2, term, df FROM gone ORDER BY term
         ON CONFLICT (contact_uid, term)
           DO UPDATE SET df = lexical_contact_term_stats.df + excluded.df`,
        [fromContactUid, toContactUid],
      );
      return rows;
    });
    this.largeContacts.forget(fromContactUid, toContactUid);
    return moved;
  }

  /** Bytes on disk of the three tables with their indexes (benchmarks, operators). */
  async storageBytes(): Promise<number> {
    const [row] = await this.db.query<{ bytes: string }>(
      `SELECT sum(pg_total_relation_size(to_regclass(t)))::bigint AS bytes FROM unnest($1::text[]) AS t`,
      [Object.values(TABLES)],
    );
    return Number(row.bytes);
  }

  /** Builds the own HNSW index of each contact whose history grew large (background job). */
  maintain(): Promise<IndexSyncReport> {
    return this.largeContacts.sync();
  }

  /** The largest contact and a typical one, from the maintained per-contact statistics. */
  async sampleContacts(): Promise<string[]> {
    const rows = await this.db.query<{ contact_uid: string }>(
      `(SELECT contact_uid FROM lexical_contact_stats ORDER BY docs DESC LIMIT 1)
       UNION ALL (SELECT contact_uid FROM lexical_contact_stats WHERE docs BETWEEN 3 AND 200 LIMIT 3)`,
    );
    return rows.map((r) => r.contact_uid);
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

  /** Pushes the filter's values; returns their placeholders. */
  private filterParams(filter: VectorFilter | undefined, params: unknown[]): FilterParams {
    return {
      contact:
        filter?.contact_uid === undefined ? undefined : `$${params.push(filter.contact_uid)}`,
      locations:
        filter?.location_uids === undefined ? undefined : `$${params.push(filter.location_uids)}`,
      contactUid: filter?.contact_uid,
    };
  }

  /**
   * The dense leg's rows (`score` = cosine), best first, from `q.v`. A contact with a large
   * history walks its own HNSW index (built by `maintain`); a small one is read whole through
   * the contact btree and sorted exactly, which is cheap and exact; unfiltered searches walk
   * the global HNSW index. So the cost is bounded by LARGE_CONTACT_WINDOWS either way.
   */
  private async denseSql(
    collection: CollectionName,
    filter: FilterParams,
    limitParam: string,
  ): Promise<string> {
    const table = TABLES[collection];
    const columns = this.selectList(collection);
    const locations = filter.locations && `location_uid = ANY(${filter.locations}::text[])`;
    const conversations = collection === 'conversations';
    if (filter.contactUid !== undefined && !(await this.largeContacts.indexed(filter.contactUid))) {
      const where = [
        `contact_uid = ${filter.contact}`,
        ...(locations ? [locations] : []),
        ...(conversations && filter.contact ? [visibleForContact(filter.contact)] : []),
      ];
      return `SELECT ${columns}, 1 - (embedding <=> q.v) AS score FROM ${table}, q
        WHERE ${where.join(' AND ')} ORDER BY score DESC, id LIMIT ${limitParam}`;
    }
    if (filter.contactUid !== undefined) {
      // A large history: the walk of the contact's own HNSW index (a fixed plan, see the
      // conversations_nearest migration), joined back for the columns.
      return `SELECT ${columns}, 1 - n.distance AS score
        FROM conversations_nearest((SELECT v FROM q), ${filter.contact}::text,
          ${filter.locations ? `${filter.locations}::text[]` : 'NULL'}, ${limitParam}::int) n
        JOIN ${table} USING (id) WHERE ${visibleForContact(filter.contact as string)}
        ORDER BY score DESC, id`;
    }
    const where = [
      ...(locations ? [locations] : []),
      ...(conversations ? [visibleAcrossContacts()] : []),
    ];
    return `SELECT ${columns}, 1 - (embedding <=> (SELECT v FROM q)) AS score FROM ${table}
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY embedding <=> (SELECT v FROM q) LIMIT ${limitParam}`;
  }

  /**
   * The lexical leg's rows without the forgotten ones (see `hideContact`). Checked on the row,
   * not the posting: the posting indexes do not cover `contact_uid` across contacts.
   */
  private visibleRow(collection: CollectionName, filter: FilterParams): string {
    if (collection !== 'conversations') {
      return '';
    }
    return `WHERE ${filter.contact ? visibleForContact(filter.contact, 't.') : visibleAcrossContacts('t.')}`;
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
    const contact = collection === 'conversations' ? ', contact_uid' : '';
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
         ON CONFLICT (id) DO NOTHING RETURNING id, term_count${contact}),
       postings AS (
         INSERT INTO ${TABLES[collection]}_terms (doc_id, term, tf, doc_len, impact, contact_uid)
         SELECT p.doc_id, p.term, p.tf, rows.term_count, posting_impact(p.tf, rows.term_count),
           ${collection === 'conversations' ? 'rows.contact_uid' : 'NULL'}
         FROM unnest($${first + 2}::uuid[], $${first + 3}::text[], $${first + 4}::int[])
           AS p(doc_id, term, tf) JOIN rows ON rows.id = p.doc_id)
       SELECT id FROM rows`,
      params,
    );
    return { inserted: inserted.length, skipped: records.length - inserted.length };
  }
}
