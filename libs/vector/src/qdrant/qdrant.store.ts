import { ConfigurationError, DependencyError, withDeadline } from '@app/common';

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
import { QdrantConnection, type QdrantStoreOptions } from './qdrant-connection';
import { QdrantSearch } from './qdrant-search';
import { QdrantWrites } from './qdrant-writes';

export { type QdrantStoreOptions } from './qdrant-connection';

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
 *
 * Reads live in qdrant-search.ts, writes in qdrant-writes.ts; this class is the port.
 */
export class QdrantStore implements VectorStore {
  private readonly qdrant: QdrantConnection;
  private readonly reads: QdrantSearch;
  private readonly writes: QdrantWrites;

  constructor(private readonly options: QdrantStoreOptions) {
    this.qdrant = new QdrantConnection(options);
    this.reads = new QdrantSearch(this.qdrant);
    this.writes = new QdrantWrites(this.qdrant);
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
          ensureCollection(this.qdrant.client, this.qdrant.name(c), c, dimension),
        ),
      ),
    );
    if (outcome.status === 'timeout') {
      throw new DependencyError(
        'vector_store_unavailable',
        `Qdrant at ${this.qdrant.origin} did not finish start-up within ${this.options.timeoutMs} ms`,
      );
    }
    if (outcome.status === 'error') {
      throw outcome.error instanceof ConfigurationError
        ? outcome.error
        : this.qdrant.failure(outcome.error);
    }
  }

  upsert<C extends CollectionName>(
    collection: C,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult> {
    return this.writes.upsert(collection, records);
  }

  replaceTopic<C extends 'source_chunks' | 'topic_summaries'>(
    collection: C,
    topicId: string,
    records: VectorRecord<C>[],
  ): Promise<UpsertResult> {
    return this.writes.replaceTopic(collection, topicId, records);
  }

  replaceWindows(
    records: VectorRecord<'conversations'>[],
    removal: WindowRemoval,
  ): Promise<UpsertResult> {
    return this.writes.replaceWindows(records, removal);
  }

  search<C extends CollectionName>(collection: C, query: DenseQuery): Promise<VectorHit<C>[]> {
    return this.reads.search(collection, query);
  }

  lexicalSearch<C extends CollectionName>(
    collection: C,
    query: LexicalQuery,
  ): Promise<VectorHit<C>[]> {
    return this.reads.lexicalSearch(collection, query);
  }

  hybridSearch<C extends CollectionName>(
    collection: C,
    query: HybridQuery,
  ): Promise<HybridResult<C>> {
    return this.reads.hybridSearch(collection, query);
  }

  existingIds(collection: CollectionName, ids: string[]): Promise<Set<string>> {
    return this.writes.existingIds(collection, ids);
  }

  async count(collection: CollectionName): Promise<number> {
    const { count } = await this.qdrant.call(() =>
      this.qdrant.client.count(this.qdrant.name(collection), { exact: true }),
    );
    return count;
  }

  deleteContact(contactUid: string, locationUids?: string[]): Promise<ContactDeletion> {
    return this.writes.deleteContact(contactUid, locationUids);
  }

  reassignContact(fromContactUid: string, toContactUid: string): Promise<number> {
    return this.writes.reassignContact(fromContactUid, toContactUid);
  }

  /** Qdrant's Kubernetes readiness endpoint (`/readyz`): 200 once its shards are ready. */
  async isHealthy(): Promise<boolean> {
    try {
      await this.qdrant.client.api().readyz({});
      return true;
    } catch {
      return false;
    }
  }

  /** The SDK pools keep-alive sockets that close themselves when idle; nothing to release. */
  async close(): Promise<void> {}
}
