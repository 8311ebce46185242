import { appendFileSync } from 'node:fs';

import { type RerankCandidate } from '@app/rerank';
import { type CollectionName } from '@app/vector';

import { type RankedLists } from '../../src/eval/run-eval';

/** One query's hybrid pool with everything fusion reads, and which documents are relevant. */
export interface PoolRecord {
  set: string;
  store: string;
  query: string;
  /** Document key → graded relevance. */
  relevant: Record<string, number>;
  /** The pool as fusion reads it, each with the document it belongs to (what metrics count). */
  pool: Array<RerankCandidate & { key: string }>;
}

/**
 * Appends pools to `BENCH_POOLS` (JSON lines) when it is set, so fusion can be tuned offline
 * with `bench/fusion-tune.ts` without re-embedding or re-querying anything.
 */
export function poolWriter(set: string, store: string) {
  const file = process.env.BENCH_POOLS;
  return <C extends CollectionName>(
    query: string,
    ranked: RankedLists<C>,
    relevant: Map<string, number>,
    keyOf: (hit: RankedLists<C>['dense'][number]) => string,
  ): void => {
    if (!file) {
      return;
    }
    const lexicalScore = new Map(ranked.lexical.map((h) => [h.id, h.score]));
    const record: PoolRecord = {
      set,
      store,
      query,
      relevant: Object.fromEntries(relevant),
      pool: ranked.pool.map((c) => ({
        id: c.id,
        key: keyOf(c.hit),
        content: c.content,
        denseScore: c.denseScore,
        denseRank: c.denseRank,
        lexicalRank: c.lexicalRank,
        lexicalScore: lexicalScore.get(c.id),
        occurredAt: c.occurredAt,
      })),
    };
    appendFileSync(file, `${JSON.stringify(record)}\n`);
  };
}
