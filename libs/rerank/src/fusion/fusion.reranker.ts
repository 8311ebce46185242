import { Cooperative, DependencyError } from '@app/common';

import {
  type RerankCandidate,
  type Reranker,
  type ScoreComponents,
} from '../interfaces/reranker.interface';
import { boilerplateShare } from './boilerplate';
import {
  DEFAULT_FUSION_OPTIONS,
  explainFusion,
  FUSION_COMPONENTS,
  type FusionOptions,
  fusionScores,
} from './fusion-score';
import { windowTerms } from './term-overlap';

/**
 * Past this length a candidate is scanned in its own event-loop slice. A /relevance pool
 * (up to 100 candidates of 20,000 characters) took over a second of main-thread CPU in one
 * block, long enough to push every live /context answer past its deadline.
 */
const LONG_CANDIDATE_CHARS = 2000;

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

  async score(
    query: string,
    candidates: RerankCandidate[],
    signal?: AbortSignal,
  ): Promise<number[]> {
    // Synchronous work, but an expired deadline should still behave like the remote
    // rerankers do, so callers have one failure path to handle.
    throwIfAborted(signal);
    if (candidates.some((c) => c.content.length > LONG_CANDIDATE_CHARS)) {
      // The per-text scans are memoised: run them one candidate at a time, yielding between,
      // so the final fusion below only reads the memos. Stops once the caller gives up.
      const cooperative = new Cooperative();
      for (const { content } of candidates) {
        await cooperative.turn();
        throwIfAborted(signal);
        boilerplateShare(content);
        windowTerms(content);
      }
    }
    return fusionScores(query, candidates, this.options);
  }

  /** The formula's parts (see `explainFusion`) under this reranker's own options. */
  components(query: string, candidates: readonly RerankCandidate[]): ScoreComponents[] {
    // The final score is the reranker's answer itself, not one of its parts.
    return explainFusion(query, candidates, this.options).map((breakdown) =>
      Object.fromEntries(FUSION_COMPONENTS.map((part) => [part, breakdown[part]])),
    );
  }
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    throw new DependencyError('rerank_failed', 'Rerank aborted: the caller stopped waiting.');
  }
}
