import { roundMs, withDeadline } from '@app/common';
import { RERANKER, type Reranker } from '@app/rerank';
import { type VectorFilter } from '@app/vector';
import { Inject, Injectable } from '@nestjs/common';

import { type HybridPool, HybridSearchService } from '../retrieval/hybrid-search.service';
import * as spans from './context-spans';
import { datedRange, joinDated, weighByRange } from './dated/dated-leg';
import { type ScoredCandidate, scoredPool } from './evidence/evidence-assembler';

/** The scored pool of one query: what the evidence stage turns into excerpts. */
export interface RankedPool {
  pool: ScoredCandidate[];
  reranked: boolean;
  /** A stage missed its deadline or failed: the bundle is partial. */
  missed: boolean;
}

/**
 * embed → hybrid pool → rerank, each under what is left of a deadline. Shared by the final
 * `/context` build and by speculation on interim speech (which embeds in the `query` lane, so
 * a final's embed is always served first). A query that names a date also searches that
 * range (a second statement beside the first, under the same deadline): its best windows
 * join the pool and the range's windows outrank the rest (dated/dated-leg.ts).
 */
@Injectable()
export class ContextRetriever {
  constructor(
    private readonly hybrid: HybridSearchService,
    @Inject(RERANKER) private readonly reranker: Reranker,
  ) {}

  get rerankerName(): string {
    return this.reranker.name;
  }

  async retrieve(
    query: string,
    filter: VectorFilter,
    poolK: number,
    left: () => number,
    stages: Record<string, number>,
    lane: 'context' | 'query' = 'context',
    signal?: AbortSignal,
    askedAt?: Date,
  ): Promise<RankedPool> {
    // Yearless and relative dates name a range only against the request's `asked_at`.
    const range = datedRange(query, askedAt);
    const pooled = await withDeadline<HybridPool>(left(), (deadline) =>
      this.hybrid.pool(query, filter, poolK, anyOf(deadline, signal), lane, range),
    );
    stages.retrieve_ms = roundMs(pooled.ms);
    if (pooled.status !== 'ok') {
      return { pool: [], reranked: false, missed: true };
    }
    Object.entries(pooled.value.timings).forEach(([name, ms]) => (stages[name] = roundMs(ms)));
    const candidates = joinDated(pooled.value.candidates, pooled.value.dated);
    if (candidates.length === 0) {
      return { pool: [], reranked: false, missed: false };
    }
    const weigh = (scores: number[]) => (range ? weighByRange(candidates, scores, range) : scores);
    const scored = await spans.stageWithDeadline(
      'context.rerank',
      left(),
      (deadline) => this.reranker.score(query, candidates, anyOf(deadline, signal)),
      (result) => spans.rerankAttributes(result, candidates.length, this.reranker.name),
    );
    stages.rerank_ms = roundMs(scored.ms);
    // A reranker that returns the wrong count or non-finite scores is treated as failed.
    if (
      scored.status === 'ok' &&
      scored.value.length === candidates.length &&
      scored.value.every(Number.isFinite)
    ) {
      const scores = weigh(scored.value);
      return { pool: scoredPool(candidates, (_, i) => scores[i]), reranked: true, missed: false };
    }
    // Degraded but timely: the vector order, with the cosine standing in for the rerank score.
    const cosines = weigh(candidates.map((c) => c.vectorScore));
    return { pool: scoredPool(candidates, (_, i) => cosines[i]), reranked: false, missed: true };
  }
}

const anyOf = (deadline: AbortSignal, signal?: AbortSignal): AbortSignal =>
  signal ? AbortSignal.any([deadline, signal]) : deadline;
