import { DependencyError } from '@app/common';

import { type RerankCandidate, type Reranker } from '../interfaces/reranker.interface';
import { DEFAULT_FUSION_OPTIONS, type FusionOptions, fusionScores } from './fusion-score';

/**
 * The embedded default: no model, no network. Fuses the dense and lexical retrieval signals
 * with a boilerplate penalty and mild recency (see `fusion-score.ts` for the formula). A pool
 * of 20 windows costs about a millisecond of CPU (less once the boilerplate memo is warm),
 * so it never comes near the rerank deadline.
 */
export class FusionReranker implements Reranker {
  readonly name = 'fusion' as const;
  private readonly options: FusionOptions;

  constructor(options: Partial<FusionOptions> = {}) {
    this.options = { ...DEFAULT_FUSION_OPTIONS, ...options };
  }

  score(query: string, candidates: RerankCandidate[], signal?: AbortSignal): Promise<number[]> {
    // Synchronous work, but an already-expired deadline should still behave like the
    // remote rerankers do, so callers have one failure path to handle.
    if (signal?.aborted) {
      return Promise.reject(
        new DependencyError('rerank_failed', 'Rerank aborted before it started.'),
      );
    }
    return Promise.resolve(fusionScores(query, candidates, this.options));
  }
}
