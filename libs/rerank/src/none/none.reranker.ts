import { type RerankCandidate, type Reranker } from '../interfaces/reranker.interface';

/**
 * Reranking switched off: the incoming order is the final order. Scores fall linearly from 1
 * with the position ((n − i) / n), so a stable sort by score is a no-op and a caller that
 * shows `rerank_score` still sees which candidate led. Position, not the cosine, is used on
 * purpose: a hybrid pool can mix lexical-only hits that have no cosine at all.
 */
export class NoneReranker implements Reranker {
  readonly name = 'none' as const;

  score(_query: string, candidates: RerankCandidate[]): Promise<number[]> {
    const n = candidates.length;
    return Promise.resolve(candidates.map((_, i) => (n - i) / n));
  }
}
