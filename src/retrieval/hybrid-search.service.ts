import { EmbeddingService } from '@app/embedding';
import { type RerankCandidate } from '@app/rerank';
import {
  type CollectionPayloads,
  VECTOR_STORE,
  type VectorFilter,
  type VectorHit,
  type VectorStore,
} from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

/** A pool member: what the reranker needs plus what the bundle shows. */
export interface PoolCandidate extends RerankCandidate {
  payload: CollectionPayloads['conversations'];
  /** Cosine similarity to the query (also for candidates found by full-text only). */
  vectorScore: number;
}

export interface HybridPool {
  candidates: PoolCandidate[];
  timings: { embed_ms: number; search_ms: number };
}

/** Pre-rank used only to cap the union at poolK before reranking. */
const RRF_K = 60;

/**
 * First stage of two-stage retrieval over conversation history: dense (pgvector cosine) and
 * lexical (Postgres full-text) lists fetched in parallel under the same filter, merged by id
 * with their ranks, so the reranker can fuse both signals.
 */
@Injectable()
export class HybridSearchService {
  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
  ) {}

  async pool(
    query: string,
    filter: VectorFilter,
    poolK: number,
    signal?: AbortSignal,
  ): Promise<HybridPool> {
    const t0 = performance.now();
    const embedding = await this.embedding.embedQuery(query, signal);
    const t1 = performance.now();
    const { dense, lexical } = await this.store.hybridSearch('conversations', {
      embedding,
      text: query,
      topK: poolK,
      filter,
    });
    return {
      candidates: mergeByRank(dense, lexical).slice(0, poolK),
      timings: { embed_ms: t1 - t0, search_ms: performance.now() - t1 },
    };
  }
}

/** Union of both lists keyed by id, carrying each list's 1-based rank, in RRF order. */
export function mergeByRank(
  dense: Array<VectorHit<'conversations'>>,
  lexical: Array<VectorHit<'conversations'>>,
): PoolCandidate[] {
  const byId = new Map<string, PoolCandidate>();
  dense.forEach((hit, i) =>
    byId.set(hit.id, {
      id: hit.id,
      content: hit.content,
      payload: hit.payload,
      occurredAt: hit.payload.occurred_at,
      denseScore: hit.score,
      denseRank: i + 1,
      vectorScore: hit.score,
    }),
  );
  lexical.forEach((hit, i) => {
    const existing = byId.get(hit.id);
    if (existing) {
      existing.lexicalRank = i + 1;
    } else {
      byId.set(hit.id, {
        id: hit.id,
        content: hit.content,
        payload: hit.payload,
        occurredAt: hit.payload.occurred_at,
        denseScore: hit.similarity,
        lexicalRank: i + 1,
        vectorScore: hit.similarity ?? 0,
      });
    }
  });
  const rrf = (c: PoolCandidate) =>
    (c.denseRank ? 1 / (RRF_K + c.denseRank) : 0) +
    (c.lexicalRank ? 1 / (RRF_K + c.lexicalRank) : 0);
  return [...byId.values()].sort((a, b) => rrf(b) - rrf(a) || b.vectorScore - a.vectorScore);
}
