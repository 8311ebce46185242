import { inSpan } from '@app/common';
import { StoreModelFollower } from '@app/database';
import { EmbeddingService } from '@app/embedding';
import { type RerankCandidate } from '@app/rerank';
import {
  type CollectionPayloads,
  type HybridResult,
  type OccurredRange,
  VECTOR_STORE,
  type VectorFilter,
  type VectorHit,
  type VectorStore,
} from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { mergeLists } from './merge-lists';

/** A pool member: what the reranker needs plus what the bundle shows. */
export interface PoolCandidate extends RerankCandidate {
  payload: CollectionPayloads['conversations'];
  /** Cosine similarity to the query (also for candidates found by full-text only). */
  vectorScore: number;
}

export interface HybridPool {
  candidates: PoolCandidate[];
  /**
   * With a time range: the range's own hybrid lists merged (ranks inside the range), from a
   * second statement on the same query vector. The caller decides which join the pool.
   */
  dated?: PoolCandidate[];
  timings: { embed_ms: number; search_ms: number };
}

/**
 * First stage of two-stage retrieval over conversation history: dense (pgvector cosine) and
 * lexical (BM25) lists fetched in parallel under the same filter, merged by id
 * with their ranks, so the reranker can fuse both signals.
 */
@Injectable()
export class HybridSearchService {
  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly follower: StoreModelFollower,
  ) {}

  async pool(
    query: string,
    filter: VectorFilter,
    poolK: number,
    signal?: AbortSignal,
    /** `query` for speculation on interim speech: it waits behind every final's embed. */
    lane: 'context' | 'query' = 'context',
    /** A time range the query names: its own lists come back as `dated`. */
    dated?: OccurredRange,
  ): Promise<HybridPool> {
    // A reembed may switch the store between the embed and the search: once more on the new model.
    return this.follower.retryOnSwitch(() =>
      this.poolOnce(query, filter, poolK, signal, lane, dated),
    );
  }

  private async poolOnce(
    query: string,
    filter: VectorFilter,
    poolK: number,
    signal: AbortSignal | undefined,
    lane: 'context' | 'query',
    dated: OccurredRange | undefined,
  ): Promise<HybridPool> {
    const t0 = performance.now();
    const embedding = await this.embedding.embedQuery(query, signal, lane); // context: served first
    const t1 = performance.now();
    // Dense and lexical lists come from one statement: one span, both counts. The deadline's
    // abort stops the statement in the database, not just our wait for it.
    const search = inSpan(
      'retrieval.hybrid_search',
      () =>
        this.store.hybridSearch('conversations', {
          embedding,
          text: query,
          topK: poolK,
          filter,
          signal,
        }),
      (lists) => ({
        'retrieval.pool_k': poolK,
        'retrieval.dense_hits': lists.dense.length,
        'retrieval.lexical_hits': lists.lexical.length,
        'retrieval.top_cosine': lists.dense[0]?.score ?? 0,
        'retrieval.contact_filter': filter.contact_uid !== undefined,
        'retrieval.location_filter': filter.location_uids !== undefined,
      }),
    );
    // The range's statement runs beside the main one (a second connection on Postgres), on
    // the same vector: only a query that names a date pays for it.
    const inRange: Promise<HybridResult<'conversations'> | undefined> = dated
      ? inSpan(
          'retrieval.dated_search',
          () =>
            this.store.hybridSearch('conversations', {
              embedding,
              text: query,
              topK: poolK,
              filter: { ...filter, occurred_at: dated },
              signal,
            }),
          (lists) => ({
            'retrieval.dense_hits': lists.dense.length,
            'retrieval.lexical_hits': lists.lexical.length,
          }),
          // An extra, not the answer: its failure (recorded on its span) leaves the main pool.
        ).catch(() => undefined)
      : Promise.resolve(undefined);
    const [{ dense, lexical }, ranged] = await Promise.all([search, inRange]);
    return {
      candidates: mergeByRank(dense, lexical).slice(0, poolK),
      ...(ranged && { dated: mergeByRank(ranged.dense, ranged.lexical) }),
      timings: { embed_ms: t1 - t0, search_ms: performance.now() - t1 },
    };
  }
}

/** Union of both lists keyed by id, carrying each list's 1-based rank, in RRF order. */
export function mergeByRank(
  dense: Array<VectorHit<'conversations'>>,
  lexical: Array<VectorHit<'conversations'>>,
): PoolCandidate[] {
  return mergeLists(dense, lexical).map(({ hit, ...candidate }) => ({
    ...candidate,
    payload: hit.payload,
  }));
}
