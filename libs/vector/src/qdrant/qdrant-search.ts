import {
  type CollectionName,
  type DenseQuery,
  type HybridQuery,
  type HybridResult,
  type LexicalQuery,
  type VectorHit,
} from '../interfaces/vector-store.interface';
import { type QdrantConnection } from './qdrant-connection';
import {
  denseRequest,
  scopesToNothing,
  sparseCosineRequest,
  sparseRequest,
  toHit,
  toLexicalHits,
} from './qdrant-requests';
import { type Schemas } from './qdrant-sdk';
import {
  scopedCalls,
  scopedLexicalSearch,
  scopedQuery,
  type ScopedRequest,
} from './scoped-lexical';
import { encodeQuery } from './sparse-text';

/**
 * The store's read paths: which requests a search sends and in how many round trips. An
 * unscoped search is one `query` or `query/batch`; a location-scoped lexical list takes a
 * second, scored with the scope's own statistics (scoped-lexical.ts).
 */
export class QdrantSearch {
  constructor(private readonly qdrant: QdrantConnection) {}

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
    const { points } = await this.query(collection, request);
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
      const { points } = await this.query(collection, lexical);
      return toLexicalHits(collection, points);
    }
    const cosine = sparseCosineRequest(sparse, query.embedding, query.topK, query.filter, collection);
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
      const { points } = await this.query(collection, dense);
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
      sparseCosineRequest(sparse, embedding, topK, filter, collection),
    ]);
    return {
      dense: near.points.map((p) => toHit(collection, p)),
      lexical: toLexicalHits(collection, found.points, rescored.points),
    };
  }

  /** A location-scoped lexical list, scored with the scope's own statistics only. */
  private scoped<C extends CollectionName>(
    collection: C,
    request: ScopedRequest,
    before?: Schemas['QueryRequest'][],
  ) {
    const calls = scopedCalls(this.qdrant.client, this.qdrant.name(collection), (work) =>
      this.qdrant.call(work),
    );
    return scopedLexicalSearch(calls, collection, request, before);
  }

  private query(
    collection: CollectionName,
    request: Schemas['QueryRequest'],
  ): Promise<Schemas['QueryResponse']> {
    return this.qdrant.call(() => this.qdrant.client.query(this.qdrant.name(collection), request));
  }

  private batch(
    collection: CollectionName,
    searches: Schemas['QueryRequest'][],
  ): Promise<Schemas['QueryResponse'][]> {
    return this.qdrant.call(() =>
      this.qdrant.client.queryBatch(this.qdrant.name(collection), { searches }),
    );
  }
}
