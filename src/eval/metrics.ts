/** Ranking metrics for one query, over a ranked list of distinct document ids. */
export interface QueryMetrics {
  hit: number;
  recall: number;
  mrr10: number;
  ndcg10: number;
}

/**
 * `relevant` maps a document id to its graded relevance (> 0). hit@k and recall@k use `k`;
 * MRR and nDCG are at 10 (BEIR's convention), nDCG with gain 2^rel − 1.
 */
export function queryMetrics(
  ranked: string[],
  relevant: Map<string, number>,
  k: number,
): QueryMetrics {
  const isRelevant = (id: string) => (relevant.get(id) ?? 0) > 0;
  const topK = ranked.slice(0, k);
  const found = topK.filter(isRelevant).length;
  const total = [...relevant.values()].filter((r) => r > 0).length;
  const first = ranked.slice(0, 10).findIndex(isRelevant);
  const gain = (rel: number) => 2 ** rel - 1;
  const dcg = ranked
    .slice(0, 10)
    .reduce((sum, id, i) => sum + gain(relevant.get(id) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...relevant.values()]
    .filter((r) => r > 0)
    .sort((a, b) => b - a)
    .slice(0, 10)
    .reduce((sum, rel, i) => sum + gain(rel) / Math.log2(i + 2), 0);
  return {
    hit: found > 0 ? 1 : 0,
    recall: total === 0 ? 0 : found / total,
    mrr10: first < 0 ? 0 : 1 / (first + 1),
    ndcg10: ideal === 0 ? 0 : dcg / ideal,
  };
}

/** Means of per-query metrics, rounded to three decimals, keyed as reports print them. */
export function meanMetrics(all: QueryMetrics[], k: number): Record<string, number> {
  const mean = (pick: (m: QueryMetrics) => number) =>
    Number((all.reduce((s, m) => s + pick(m), 0) / Math.max(1, all.length)).toFixed(3));
  return {
    [`hit@${k}`]: mean((m) => m.hit),
    [`recall@${k}`]: mean((m) => m.recall),
    'mrr@10': mean((m) => m.mrr10),
    'ndcg@10': mean((m) => m.ndcg10),
  };
}

/** The distinct keys of `items` in order (a document's best chunk stands for it). */
export function distinct(keys: string[]): string[] {
  return [...new Set(keys)];
}
