import { type Database, type SqlExecutor } from '@app/database';

import {
  type CollectionName,
  type ContactDeletion,
  type ContactDeletionOptions,
  type DenseQuery,
  type HybridQuery,
  type HybridResult,
  type LexicalQuery,
  type UpsertResult,
  type VectorHit,
  type VectorRecord,
  type VectorStore,
  type WindowRemoval,
} from '../interfaces/vector-store.interface';
import { bm25Ctes, POSTINGS_PER_TERM, queryTerms } from './bm25';
import {
  type IndexSyncReport,
  LARGE_CONTACT_WINDOWS,
  LargeContactIndexes,
} from './large-contact-indexes';
import {
  denseSql,
  type FilterParams,
  filterParams,
  occurredSql,
  PURGES,
  type Row,
  selectList,
  toHits,
  toVectorParam,
  visiblePosting,
} from './row-sql';
import { DELETE_BATCH, deleteRows, insertRows, moveContactRows } from './row-writes';
import { TABLES } from './tables';

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
    const result = await insertRows(this.database, collection, records);
    if (collection === 'conversations') {
      this.noteWrites(result, records as VectorRecord<'conversations'>[]);
    }
    return result;
  }

  async replaceTopic<C extends 'source_chunks' | 'topic_summaries'>(
    collection: C,
    topicId: string,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult> {
    return this.database.transaction(async (tx) => {
      // Raw: a delete with an id exclusion list, on the collection's table chosen at run time.
      await tx.execute(
        `DELETE FROM ${TABLES[collection]} WHERE topic_id = $1 AND NOT (id = ANY($2::uuid[]))`,
        [topicId, records.map((r) => r.id)],
      );
      return insertRows(tx, collection, records);
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
          await deleteRows(tx, 'conversations', removal.ids, keep);
        }
      } else if (removal.allOtherWindowsOf.length) {
        // Raw: a key-pair join over unnest()ed (contact, conversation) pairs.
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
      return insertRows(tx, 'conversations', records);
    }).then((result) => this.noteWrites(result, records));
  }

  async search<C extends CollectionName>(
    collection: C,
    query: DenseQuery,
  ): Promise<VectorHit<C>[]> {
    const params: unknown[] = [toVectorParam(query.embedding), query.topK];
    const filter = filterParams(collection, query.filter, params);
    const threshold =
      query.scoreThreshold === undefined
        ? ''
        : `WHERE score >= $${params.push(query.scoreThreshold)}`;
    const dense = await this.denseSql(collection, filter);
    const sql = `WITH q AS (SELECT $1::vector AS v), dense AS (${dense})
      SELECT * FROM dense ${threshold} ORDER BY score DESC, id`;
    // Raw: pgvector's `<=>` order (HNSW walk or exact sort), prepared per session (the hot path).
    return toHits(
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
    const filter = filterParams(collection, query.filter, params);
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
      visible: visiblePosting(collection, filter),
      documents: occurredSql(filter, 'd.'),
    });
    const sql = `WITH ${bm25}
      SELECT ${selectList(collection)}, bm25.score${similarity}
      FROM bm25 JOIN ${TABLES[collection]} t ON t.id = bm25.doc_id
      ORDER BY bm25.score DESC, t.id`;
    // Raw: BM25 CTEs over the posting indexes (the hot path).
    return toHits(
      collection,
      await this.db.queryPrepared<Row>(sql, params, { signal: query.signal }),
    );
  }

  async hybridSearch<C extends CollectionName>(
    collection: C,
    query: HybridQuery,
  ): Promise<HybridResult<C>> {
    const params: unknown[] = [toVectorParam(query.embedding), query.topK, queryTerms(query.text)];
    const filter = filterParams(collection, query.filter, params);
    const table = TABLES[collection];
    const columns = selectList(collection);
    const dense = await this.denseSql(collection, filter);
    const bm25 = bm25Ctes({
      collection,
      contactParam: filter.contact,
      locationsParam: filter.locations,
      termsParam: '$3',
      limitParam: '$2',
      postingsPerTerm: this.postingsPerTerm,
      visible: visiblePosting(collection, filter),
      documents: occurredSql(filter, 'd.'),
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
        FROM bm25 JOIN ${table} t ON t.id = bm25.doc_id, q
        ORDER BY bm25.score DESC, t.id)
      SELECT * FROM dense UNION ALL SELECT * FROM lexical`;
    // Raw: both legs in one prepared statement, one parse of the query vector. A time range
    // (a question that names a date) is planned per call: its cached generic plan ran the
    // LoCoMo questions' statement at p50 ~40 ms against ~5 ms planned with the range's values
    // (PGlite, docs/benchmarks.md "A date leg").
    type Listed = Row & { list: 'dense' | 'lexical' };
    const options = { signal: query.signal };
    const rows = filter.occurred
      ? await this.db.query<Listed>(sql, params, options)
      : await this.db.queryPrepared<Listed>(sql, params, options);
    return {
      dense: toHits(
        collection,
        rows.filter((r) => r.list === 'dense'),
      ),
      lexical: toHits(
        collection,
        rows.filter((r) => r.list === 'lexical'),
      ),
    };
  }

  async existingIds(collection: CollectionName, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) {
      return new Set();
    }
    // Raw: an id-array probe on the collection's table chosen at run time.
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM ${TABLES[collection]} WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  async count(collection: CollectionName): Promise<number> {
    // Raw: a count on the collection's table chosen at run time.
    const [row] = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${TABLES[collection]}`,
    );
    return row.n;
  }

  async hideContact(contactUid: string, before: Date | string): Promise<void> {
    // Raw: a conditional upsert (ON CONFLICT … DO UPDATE with GREATEST).
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
      ...(options.before ? [`stored_at <= $${params.push(options.before)}::timestamptz`] : []),
    ].map((condition) => ` AND ${condition}`);
    let removed = 0;
    for (;;) {
      if (options.signal?.aborted) {
        return { removed, complete: false };
      }
      // Raw: a bounded id batch (LIMIT) for the batched delete.
      const ids = await this.db.query<{ id: string }>(
        `SELECT id FROM ${TABLES.conversations} WHERE contact_uid = $1${scope.join('')} LIMIT $2`,
        params,
      );
      if (ids.length === 0) {
        break;
      }
      removed += await this.database.transaction((tx) =>
        deleteRows(
          tx,
          'conversations',
          ids.map((r) => r.id),
        ),
      );
    }
    if (!locationUids) {
      // Raw: a conditional delete with a nullable timestamp parameter.
      await this.db.execute(
        `DELETE FROM ${PURGES} WHERE contact_uid = $1
           AND ($2::timestamptz IS NULL OR hidden_before <= $2::timestamptz)`,
        [contactUid, options.before ?? null],
      );
    }
    this.largeContacts.forget(contactUid);
    return { removed, complete: true };
  }

  /** A merge: the rows, their postings and the contact's BM25 statistics follow the survivor. */
  async reassignContact(fromContactUid: string, toContactUid: string): Promise<number> {
    return this.database.transaction((tx) => this.moveContactIn(tx, fromContactUid, toContactUid));
  }

  async moveContactIn(tx: SqlExecutor, fromContactUid: string, toContactUid: string) {
    const moved = await moveContactRows(tx, fromContactUid, toContactUid);
    this.largeContacts.forget(fromContactUid, toContactUid);
    return moved;
  }

  /** Bytes on disk of the three tables with their indexes (benchmarks, operators). */
  async storageBytes(): Promise<number> {
    // Raw: catalog functions over an unnest()ed table list.
    const [row] = await this.db.query<{ bytes: string }>(
      `SELECT sum(pg_total_relation_size(to_regclass(t)))::bigint AS bytes FROM unnest($1::text[]) AS t`,
      [Object.values(TABLES)],
    );
    return Number(row.bytes);
  }

  /**
   * Builds the own HNSW index of each contact whose history grew large (background job);
   * `signal` (shutdown) cancels a build in flight.
   */
  maintain(signal?: AbortSignal): Promise<IndexSyncReport> {
    return this.largeContacts.sync(signal);
  }

  /** Whether a write that just settled left a contact past the threshold without its index. */
  maintenanceDue(): Promise<boolean> {
    return this.largeContacts.due();
  }

  /** The largest contact and a typical one, from the maintained per-contact statistics. */
  async sampleContacts(): Promise<string[]> {
    // Raw: a UNION of the largest and a few typical contacts.
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

  /** Windows added: their contacts may have grown past the threshold of an index of their own. */
  private noteWrites(result: UpsertResult, records: VectorRecord<'conversations'>[]): UpsertResult {
    if (result.inserted > 0) {
      this.largeContacts.noteWrites(new Set(records.map((r) => r.payload.contact_uid)));
    }
    return result;
  }

  private get db(): Pick<Database, keyof SqlExecutor | 'queryPrepared'> {
    return this.database;
  }

  /** The dense leg's SQL; whether the contact has its own HNSW index decides the plan. */
  private async denseSql(collection: CollectionName, filter: FilterParams): Promise<string> {
    const ownIndex =
      filter.contactUid !== undefined &&
      !filter.occurred &&
      (await this.largeContacts.indexed(filter.contactUid));
    return denseSql(collection, filter, '$2', ownIndex);
  }
}
