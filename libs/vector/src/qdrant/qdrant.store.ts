import { ConfigurationError, DependencyError, withDeadline } from '@app/common';
import { Logger } from '@nestjs/common';

import {
  type CollectionName,
  COLLECTIONS,
  type ContactDeletion,
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
import { ensureCollection } from './qdrant-collections';
import {
  denseRequest,
  scopesToNothing,
  sparseCosineRequest,
  sparseRequest,
  toHit,
  toLexicalHits,
  toPoint,
  toQdrantFilter,
  uniqueById,
  windowOperations,
} from './qdrant-requests';
import { describeFailure, type QdrantClient, qdrantSdk, type Schemas } from './qdrant-sdk';
import {
  scopedCalls,
  scopedLexicalSearch,
  scopedQuery,
  type ScopedRequest,
} from './scoped-lexical';
import { encodeQuery } from './sparse-text';

/** How to reach Qdrant and which collections to use (from `VectorModuleOptions`). */
export interface QdrantStoreOptions {
  /** `QDRANT_URL`, e.g. `http://qdrant:6333` or a Qdrant Cloud https URL. */
  url: string;
  /** `QDRANT_API_KEY`, sent as the `api-key` header. */
  apiKey?: string;
  /** Per request, and the most `init` waits for Qdrant before it gives up. */
  timeoutMs: number;
  /** Qdrant collection name per logical collection. */
  collections: Record<CollectionName, string>;
}

/**
 * The Qdrant provider. Each collection has the unnamed dense vector (Cosine, the embedder's
 * dimension) and a `bm25` sparse vector whose idf Qdrant applies at query time; the text and
 * the payload fields sit in the payload, with keyword indexes on the filtered fields.
 *
 * Hybrid search returns the port's two lists from one `query/batch` round trip: dense
 * nearest, BM25 best, and the BM25 candidates re-scored by cosine (each lexical hit's
 * `similarity`). Fusion stays in the reranker, as on pgvector; see docs/architecture.md. A
 * location-scoped search takes a second round trip: its BM25 uses the scope's own statistics
 * (scoped-lexical.ts), never Qdrant's collection-wide idf.
 *
 * A search's `signal` is only checked before the request is sent: the SDK's `query` and
 * `queryBatch` take no signal, and its timeout middleware replaces any `signal` given to
 * fetch. A request in flight runs until it answers or reaches `timeoutMs`.
 */
export class QdrantStore implements VectorStore {
  private readonly logger = new Logger(QdrantStore.name);
  private readonly client: QdrantClient;
  /** Scheme, host and port only: never credentials, for messages and logs. */
  private readonly origin: string;

  constructor(private readonly options: QdrantStoreOptions) {
    const url = new URL(options.url);
    this.origin = url.origin;
    const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    if (options.apiKey && url.protocol === 'http:' && !loopback) {
      this.logger.warn(`QDRANT_API_KEY is sent over plain http to ${this.origin}`);
    }
    // The key goes in as the header the SDK would set: its `apiKey` option console.warns on
    // http URLs itself, outside our logger. The version probe is off: it would console.warn.
    this.client = new qdrantSdk.QdrantClient({
      url: options.url,
      timeout: options.timeoutMs,
      checkCompatibility: false,
      ...(options.apiKey ? { headers: { 'api-key': options.apiKey } } : {}),
    });
  }

  /**
   * Creates or checks the collections (a dimension mismatch is a ConfigurationError), within
   * `timeoutMs` overall; an unreachable or slow Qdrant is a DependencyError the caller may
   * retry, since every step is idempotent.
   */
  async init(dimension: number): Promise<void> {
    const outcome = await withDeadline(this.options.timeoutMs, () =>
      Promise.all(
        COLLECTIONS.map((c) =>
          ensureCollection(this.client, this.options.collections[c], c, dimension),
        ),
      ),
    );
    if (outcome.status === 'timeout') {
      throw new DependencyError(
        'vector_store_unavailable',
        `Qdrant at ${this.origin} did not finish start-up within ${this.options.timeoutMs} ms`,
      );
    }
    if (outcome.status === 'error') {
      throw outcome.error instanceof ConfigurationError
        ? outcome.error
        : this.failure(outcome.error);
    }
  }

  async upsert<C extends CollectionName>(
    collection: C,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult> {
    const fresh = await this.freshRecords(collection, records);
    if (fresh.length) {
      await this.call(() =>
        this.client.upsert(this.name(collection), { wait: true, points: fresh.map(toPoint) }),
      );
    }
    return { inserted: fresh.length, skipped: records.length - fresh.length };
  }

  /**
   * One ordered batch: upsert the new chunks, then delete the topic's points that are not in
   * `records`. The topic is never empty in between, and no stale chunk survives.
   */
  async replaceTopic<C extends 'source_chunks' | 'topic_summaries'>(
    collection: C,
    topicId: string,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult> {
    const fresh = await this.freshRecords(collection, records);
    const keep = uniqueById(records).map((r) => r.id);
    const operations: Schemas['UpdateOperation'][] = [];
    if (fresh.length) {
      operations.push({ upsert: { points: fresh.map(toPoint) } });
    }
    operations.push({
      delete: {
        filter: {
          must: [{ key: 'topic_id', match: { value: topicId } }],
          ...(keep.length ? { must_not: [{ has_id: keep }] } : {}),
        },
      },
    });
    await this.call(() =>
      this.client.batchUpdate(this.name(collection), { wait: true, operations }),
    );
    return { inserted: fresh.length, skipped: records.length - fresh.length };
  }

  /** One ordered batch: upsert the new windows, then delete the stale ones. */
  async replaceWindows(
    records: VectorRecord<'conversations'>[],
    removal: WindowRemoval,
  ): Promise<UpsertResult> {
    const fresh = await this.freshRecords('conversations', records);
    const operations = windowOperations(fresh, records, removal);
    if (operations.length) {
      await this.call(() =>
        this.client.batchUpdate(this.name('conversations'), { wait: true, operations }),
      );
    }
    return { inserted: fresh.length, skipped: records.length - fresh.length };
  }

  async search<C extends CollectionName>(
    collection: C,
    query: DenseQuery,
  ): Promise<VectorHit<C>[]> {
    query.signal?.throwIfAborted();
    if (scopesToNothing(query.filter)) {
      return [];
    }
    const request = denseRequest(
      collection,
      query.embedding,
      query.topK,
      query.filter,
      query.scoreThreshold,
    );
    const { points } = await this.call(() => this.client.query(this.name(collection), request));
    return points.map((p) => toHit(collection, p));
  }

  async lexicalSearch<C extends CollectionName>(
    collection: C,
    query: LexicalQuery,
  ): Promise<VectorHit<C>[]> {
    query.signal?.throwIfAborted();
    const sparse = encodeQuery(query.text);
    if (!sparse.indices.length || scopesToNothing(query.filter)) {
      return [];
    }
    if (query.filter?.location_uids) {
      const { topK, filter, embedding } = query;
      const found = await this.scoped(collection, {
        sparse: scopedQuery(query.text),
        topK,
        filter,
        embedding,
      });
      return found.lexical;
    }
    const lexical = sparseRequest(collection, sparse, query.topK, query.filter);
    if (!query.embedding) {
      const { points } = await this.call(() => this.client.query(this.name(collection), lexical));
      return toLexicalHits(collection, points);
    }
    const cosine = sparseCosineRequest(sparse, query.embedding, query.topK, query.filter);
    const [found, rescored] = await this.batch(collection, [lexical, cosine]);
    return toLexicalHits(collection, found.points, rescored.points);
  }

  async hybridSearch<C extends CollectionName>(
    collection: C,
    query: HybridQuery,
  ): Promise<HybridResult<C>> {
    query.signal?.throwIfAborted();
    if (scopesToNothing(query.filter)) {
      return { dense: [], lexical: [] };
    }
    const { embedding, topK, filter } = query;
    const sparse = encodeQuery(query.text);
    const dense = denseRequest(collection, embedding, topK, filter);
    if (!sparse.indices.length) {
      const { points } = await this.call(() => this.client.query(this.name(collection), dense));
      return { dense: points.map((p) => toHit(collection, p)), lexical: [] };
    }
    if (filter?.location_uids) {
      const request = { sparse: scopedQuery(query.text), topK, filter, embedding };
      const found = await this.scoped(collection, request, [dense]);
      return {
        dense: found.before[0].points.map((p) => toHit(collection, p)),
        lexical: found.lexical,
      };
    }
    const [near, found, rescored] = await this.batch(collection, [
      dense,
      sparseRequest(collection, sparse, topK, filter),
      sparseCosineRequest(sparse, embedding, topK, filter),
    ]);
    return {
      dense: near.points.map((p) => toHit(collection, p)),
      lexical: toLexicalHits(collection, found.points, rescored.points),
    };
  }

  async existingIds(collection: CollectionName, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) {
      return new Set();
    }
    const found = await this.call(() =>
      this.client.retrieve(this.name(collection), { ids, with_payload: false, with_vector: false }),
    );
    return new Set(found.map((p) => String(p.id)));
  }

  async count(collection: CollectionName): Promise<number> {
    const { count } = await this.call(() =>
      this.client.count(this.name(collection), { exact: true }),
    );
    return count;
  }

  /**
   * Counts, then deletes by filter: Qdrant's delete does not say how many points it removed.
   * One call, always complete; `before` is not applied (every window of the contact goes).
   */
  async deleteContact(contactUid: string, locationUids?: string[]): Promise<ContactDeletion> {
    if (locationUids?.length === 0) {
      return { removed: 0, complete: true };
    }
    const filter = toQdrantFilter({
      contact_uid: contactUid,
      location_uids: locationUids,
    }) as Schemas['Filter'];
    const name = this.name('conversations');
    const { count } = await this.call(() => this.client.count(name, { exact: true, filter }));
    if (count > 0) {
      await this.call(() => this.client.delete(name, { wait: true, filter }));
    }
    return { removed: count, complete: true };
  }

  /** Re-keys the payload in place; points keep their ids, as rows do on pgvector. */
  async reassignContact(fromContactUid: string, toContactUid: string): Promise<number> {
    const filter = toQdrantFilter({ contact_uid: fromContactUid }) as Schemas['Filter'];
    const name = this.name('conversations');
    const { count } = await this.call(() => this.client.count(name, { exact: true, filter }));
    if (count > 0) {
      await this.call(() =>
        this.client.setPayload(name, {
          wait: true,
          payload: { contact_uid: toContactUid },
          filter,
        }),
      );
    }
    return count;
  }

  /** Qdrant's Kubernetes readiness endpoint (`/readyz`): 200 once its shards are ready. */
  async isHealthy(): Promise<boolean> {
    try {
      await this.client.api().readyz({});
      return true;
    } catch {
      return false;
    }
  }

  /** The SDK pools keep-alive sockets that close themselves when idle; nothing to release. */
  async close(): Promise<void> {}

  private name(collection: CollectionName): string {
    return this.options.collections[collection];
  }

  /** `records` minus duplicates and ids already stored (pgvector's `ON CONFLICT DO NOTHING`). */
  private async freshRecords<C extends CollectionName>(
    collection: C,
    records: VectorRecord<C>[],
  ): Promise<VectorRecord<C>[]> {
    const unique = uniqueById(records);
    const existing = await this.existingIds(
      collection,
      unique.map((r) => r.id),
    );
    return unique.filter((r) => !existing.has(r.id));
  }

  /** A location-scoped lexical list, scored with the scope's own statistics only. */
  private scoped<C extends CollectionName>(
    collection: C,
    request: ScopedRequest,
    before?: Schemas['QueryRequest'][],
  ) {
    const calls = scopedCalls(this.client, this.name(collection), (work) => this.call(work));
    return scopedLexicalSearch(calls, collection, request, before);
  }

  private batch(
    collection: CollectionName,
    searches: Schemas['QueryRequest'][],
  ): Promise<Schemas['QueryResponse'][]> {
    return this.call(() => this.client.queryBatch(this.name(collection), { searches }));
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.failure(error);
    }
  }

  private failure(error: unknown): DependencyError {
    return new DependencyError(
      'vector_store_unavailable',
      describeFailure(error, this.origin, this.options.timeoutMs),
    );
  }
}
