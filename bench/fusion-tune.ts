/**
 * Replays hybrid pools saved by `bench:quality` (run it with `BENCH_POOLS=<file>`) through the
 * fusion reranker, so its weights can be compared without re-embedding or re-querying:
 * per set, hit@5 and nDCG@10 for each leg alone (dense, BM25), the RRF pool order, the
 * defaults, and a grid around the defaults (each weight ×0.5/×1/×2), best first, each marked
 * with whether it beats the better leg on every set and metric. Prints JSON.
 *
 *   BENCH_POOLS=/tmp/pools.jsonl npm run bench:quality
 *   npm run bench:fusion-tune -- /tmp/pools.jsonl [more.jsonl]   # BENCH_TOP=10
 *   BENCH_OPTIONS='{"lexicalScoreWeight":0}' npm run bench:fusion-tune -- …   # one setting too
 */
import { readFileSync } from 'node:fs';

import { DEFAULT_FUSION_OPTIONS, explainFusion, type FusionOptions } from '@app/rerank';

import { distinct, meanMetrics, queryMetrics } from '../src/eval/metrics';
import { type PoolRecord } from './support/pool-dump';
import { printJson } from './support/stats';

type Candidate = PoolRecord['pool'][number];
type Scores = Record<string, { 'hit@5': number; 'ndcg@10': number }>;

const K = 5;
const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: npm run bench:fusion-tune -- <pools.jsonl> [...]');
  process.exit(2);
}
const records = files.flatMap((file) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as PoolRecord),
);

/** Mean hit@5 and nDCG@10 per set and store for one way of ordering each pool. */
function measure(order: (record: PoolRecord) => Candidate[]): Scores {
  const bySet = new Map<string, ReturnType<typeof queryMetrics>[]>();
  for (const record of records) {
    const label = `${record.set}/${record.store}`;
    const ranked = distinct(order(record).map((c) => c.key));
    const metrics = queryMetrics(ranked, new Map(Object.entries(record.relevant)), K);
    bySet.set(label, [...(bySet.get(label) ?? []), metrics]);
  }
  return Object.fromEntries(
    [...bySet].map(([label, all]) => {
      const mean = meanMetrics(all, K);
      return [label, { 'hit@5': mean['hit@5'], 'ndcg@10': mean['ndcg@10'] }];
    }),
  );
}

const byRank = (rank: (c: Candidate) => number | undefined) => (record: PoolRecord) =>
  record.pool.filter((c) => rank(c) !== undefined).sort((a, b) => rank(a)! - rank(b)!);

const fused = (options: Partial<FusionOptions>) => (record: PoolRecord) => {
  const breakdown = explainFusion(record.query, record.pool, options);
  return record.pool
    .map((candidate, i) => ({ candidate, score: breakdown[i].score }))
    .sort((a, b) => b.score - a.score)
    .map((x) => x.candidate);
};

const legs = {
  dense: measure(byRank((c) => c.denseRank)),
  lexical: measure(byRank((c) => c.lexicalRank)),
  rrf_pool: measure((record) => record.pool),
};
const beatsLegs = (scores: Scores) =>
  Object.entries(scores).every(([label, s]) =>
    (['hit@5', 'ndcg@10'] as const).every(
      (m) => s[m] >= Math.max(legs.dense[label][m], legs.lexical[label][m]),
    ),
  );
const objective = (scores: Scores) => {
  const all = Object.values(scores);
  return all.reduce((sum, s) => sum + s['hit@5'] + s['ndcg@10'], 0) / (2 * all.length);
};

const KNOBS = ['rankWeight', 'cosineWeight', 'lexicalScoreWeight', 'overlapWeight'] as const;
const grid: Array<Partial<FusionOptions>> = [{}];
for (const knob of KNOBS) {
  const next = grid.flatMap((g) =>
    [0.5, 1, 2].map((f) => ({ ...g, [knob]: DEFAULT_FUSION_OPTIONS[knob] * f })),
  );
  grid.splice(0, grid.length, ...next);
}
const ranked = grid
  .map((options) => {
    const scores = measure(fused(options));
    return {
      options,
      objective: Number(objective(scores).toFixed(4)),
      beats_best_leg: beatsLegs(scores),
      scores,
    };
  })
  .sort((a, b) => b.objective - a.objective);

const defaults = measure(fused({}));
const chosen = process.env.BENCH_OPTIONS
  ? (JSON.parse(process.env.BENCH_OPTIONS) as Partial<FusionOptions>)
  : undefined;
const chosenScores = chosen && measure(fused(chosen));
printJson({
  bench: 'fusion-tune',
  queries: records.length,
  legs,
  defaults: { objective: objective(defaults), beats_best_leg: beatsLegs(defaults), defaults },
  ...(chosen &&
    chosenScores && {
      options: {
        options: chosen,
        objective: objective(chosenScores),
        beats_best_leg: beatsLegs(chosenScores),
        scores: chosenScores,
      },
    }),
  grid: ranked.slice(0, Number(process.env.BENCH_TOP ?? 10)),
});
