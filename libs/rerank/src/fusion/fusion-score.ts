import { type RerankCandidate } from '../interfaces/reranker.interface';
import { boilerplateShare } from './boilerplate';
import { termOverlap } from './term-overlap';

/** Tuning knobs of the fusion reranker. Every weight is relative; none needs to sum to 1. */
export interface FusionOptions {
  /** Reciprocal-rank constant: smaller lets rank differences inside one list count for more. */
  k: number;
  /** Weight of the dense list's reciprocal rank inside the rank component. */
  denseRankWeight: number;
  /** Weight of the lexical list's reciprocal rank inside the rank component. */
  lexicalRankWeight: number;
  /** Weight of the rank component (weighted reciprocal-rank fusion of both lists). */
  rankWeight: number;
  /** Weight of the dense cosine value itself, which keeps the size of gaps that ranks hide. */
  cosineWeight: number;
  /** Weight of the lexical (BM25) score over the pool's best: the lexical gaps ranks hide. */
  lexicalScoreWeight: number;
  /** Weight of the query-term coverage computed here, the lexical signal for every pair. */
  overlapWeight: number;
  /** Weight of the both-lists indicator: two independent retrievers agreeing is evidence. */
  agreementWeight: number;
  /** Share of its score a window made only of pleasantries loses (0 disables the penalty). */
  boilerplatePenalty: number;
  /** Exponent on the boilerplate share; above 1 a trailing sign-off costs almost nothing. */
  boilerplateExponent: number;
  /** Share of its score the oldest window can lose to the newest (0 disables recency). */
  recencyWeight: number;
  /** Age, relative to the newest candidate, at which half of the recency credit is gone. */
  recencyHalfLifeDays: number;
}

/**
 * Defaults chosen on SQuAD-500 and SGD per contact, on both stores, from pools saved by
 * `bench:quality` and replayed with `bench:fusion-tune` (the figures and commands are in
 * docs/benchmarks.md, "Fusion defaults"). With them fusion beats its better leg (BM25) on
 * every set, store and metric, and the grid around them is flat. The BM25 score share is what
 * lets fusion beat its best leg. Dropping the cosine scored a little higher still with this
 * weak embedder, but paraphrased questions need it, so it stays. The agreement bonus cost
 * more than it gave (both-list hits already sum two reciprocal ranks), so it is off. The
 * boilerplate penalty is squared: it beat a linear one on SGD.
 */
export const DEFAULT_FUSION_OPTIONS: Readonly<FusionOptions> = Object.freeze({
  k: 60,
  denseRankWeight: 1,
  lexicalRankWeight: 1,
  rankWeight: 1,
  cosineWeight: 1,
  lexicalScoreWeight: 2,
  overlapWeight: 2,
  agreementWeight: 0,
  boilerplatePenalty: 0.7,
  boilerplateExponent: 2,
  recencyWeight: 0.05,
  recencyHalfLifeDays: 180,
});

/** Every intermediate value for one candidate, for debugging and benchmarks. */
export interface FusionBreakdown {
  /** Weighted reciprocal rank over both lists, scaled so rank 1 in both is 1; null if no ranks. */
  rank: number | null;
  /** Cosine clamped to [0, 1] (imputed for lexical-only hits); null if no dense scores. */
  cosine: number | null;
  /** Lexical score over the pool's best (0 if not in that list); null if no lexical scores. */
  lexical: number | null;
  /** IDF-weighted share of the query's content words the candidate contains. */
  overlap: number;
  /** 1 when both lists found the candidate; null unless both lists contributed to the pool. */
  agreement: number | null;
  /** Weighted mean of the available components, in [0, 1]. */
  relevance: number;
  /** Token share of the window that is pleasantry, in [0, 1]. */
  boilerplate: number;
  /** Recency credit in [0, 1]: 1 for the newest window, halving every half-life. */
  recency: number | null;
  /** The score: relevance × boilerplate factor × recency factor, in [0, 1]. */
  score: number;
}

/** The parts of a fusion score the explain mode shows: every breakdown field but the score. */
export const FUSION_COMPONENTS = [
  'rank',
  'cosine',
  'lexical',
  'overlap',
  'agreement',
  'relevance',
  'boilerplate',
  'recency',
] as const satisfies ReadonlyArray<Exclude<keyof FusionBreakdown, 'score'>>;

const DAY_MS = 86_400_000;

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const isRank = (r: number | undefined): r is number =>
  r !== undefined && Number.isFinite(r) && r >= 1;
const isPositive = (x: number | undefined): x is number =>
  x !== undefined && Number.isFinite(x) && x > 0;

/**
 * Scores a candidate pool without a cross-encoder. Pure and deterministic: the same input
 * gives the same output, with no clock (recency is measured from the newest candidate).
 *
 * relevance = Σ wᵢ·componentᵢ / Σ wᵢ over the components this pool supports:
 * - rank: (wd/(k+rd) + wl/(k+rl)) / ((wd+wl)/(k+1)), a missing rank contributing 0;
 * - cosine: the dense cosine clamped to [0, 1]; a lexical-only hit gets the pool's lowest
 *   cosine, since it ranked below every dense hit;
 * - lexical: the BM25 score over the pool's highest, 0 for a dense-only hit;
 * - overlap: query-term coverage (always available);
 * - agreement: 1 if found by both lists.
 *
 * score = relevance × (1 − penalty·boilerplate^exponent) × (1 − rw + rw·recency).
 *
 * A component no candidate has is dropped rather than counted as 0, so a standalone pair
 * (no ranks, the `/relevance` case) scores (cosine + 2·overlap)/3 with the defaults, or the
 * overlap alone without a cosine: the share of the query the text answers, still in 0..1.
 */
export function explainFusion(
  query: string,
  candidates: readonly RerankCandidate[],
  overrides: Partial<FusionOptions> = {},
): FusionBreakdown[] {
  const o: FusionOptions = { ...DEFAULT_FUSION_OPTIONS, ...overrides };
  if (candidates.length === 0) {
    return [];
  }

  const hasDenseRanks = candidates.some((c) => isRank(c.denseRank));
  const hasLexicalRanks = candidates.some((c) => isRank(c.lexicalRank));
  const cosines = candidates
    .map((c) => c.denseScore)
    .filter((s): s is number => s !== undefined && Number.isFinite(s));
  const imputedCosine = cosines.length > 0 ? clamp01(Math.min(...cosines)) : null;
  const bestLexical = Math.max(
    0,
    ...candidates.map((c) => (isPositive(c.lexicalScore) ? c.lexicalScore : 0)),
  );

  const rankScale = (o.denseRankWeight + o.lexicalRankWeight) / (o.k + 1);
  const rankOf = (c: RerankCandidate): number | null => {
    if (!hasDenseRanks && !hasLexicalRanks) {
      return null;
    }
    const dense = isRank(c.denseRank) ? o.denseRankWeight / (o.k + c.denseRank) : 0;
    const lexical = isRank(c.lexicalRank) ? o.lexicalRankWeight / (o.k + c.lexicalRank) : 0;
    return rankScale > 0 ? clamp01((dense + lexical) / rankScale) : 0;
  };

  const overlaps = termOverlap(
    query,
    candidates.map((c) => c.content),
  );
  const recency = recencyCredits(candidates, o.recencyHalfLifeDays);

  return candidates.map((c, i) => {
    const rank = rankOf(c);
    const cosine =
      imputedCosine === null
        ? null
        : c.denseScore !== undefined && Number.isFinite(c.denseScore)
          ? clamp01(c.denseScore)
          : imputedCosine;
    const agreement =
      hasDenseRanks && hasLexicalRanks
        ? isRank(c.denseRank) && isRank(c.lexicalRank)
          ? 1
          : 0
        : null;
    const overlap = clamp01(overlaps[i]);
    const lexical =
      bestLexical > 0 ? (isPositive(c.lexicalScore) ? c.lexicalScore / bestLexical : 0) : null;

    let weighted = o.overlapWeight * overlap;
    let weights = o.overlapWeight;
    for (const [value, weight] of [
      [rank, o.rankWeight],
      [cosine, o.cosineWeight],
      [lexical, o.lexicalScoreWeight],
      [agreement, o.agreementWeight],
    ] as const) {
      if (value !== null) {
        weighted += weight * value;
        weights += weight;
      }
    }
    const relevance = weights > 0 ? clamp01(weighted / weights) : 0;

    const boilerplate = boilerplateShare(c.content);
    const boilerFactor = 1 - clamp01(o.boilerplatePenalty) * boilerplate ** o.boilerplateExponent;
    const rw = clamp01(o.recencyWeight);
    const recencyFactor = recency[i] === null ? 1 : 1 - rw + rw * recency[i];
    const score = clamp01(relevance * boilerFactor * recencyFactor);
    return {
      rank,
      cosine,
      lexical,
      overlap,
      agreement,
      relevance,
      boilerplate,
      recency: recency[i],
      score,
    };
  });
}

/** The fusion scores alone, in input order (see {@link explainFusion} for the formula). */
export function fusionScores(
  query: string,
  candidates: readonly RerankCandidate[],
  overrides: Partial<FusionOptions> = {},
): number[] {
  return explainFusion(query, candidates, overrides).map((b) => b.score);
}

/**
 * Recency credit per candidate, measured from the newest window in the pool rather than from
 * the wall clock: the output stays deterministic, and a contact whose last call was a year
 * ago still gets their latest window preferred. Null for everyone when fewer than two
 * candidates carry a valid timestamp (nothing to compare); 0 for a missing one otherwise.
 */
function recencyCredits(
  candidates: readonly RerankCandidate[],
  halfLifeDays: number,
): Array<number | null> {
  const times = candidates.map((c) =>
    c.occurredAt === undefined ? NaN : Date.parse(c.occurredAt),
  );
  const valid = times.filter((t) => Number.isFinite(t));
  if (valid.length < 2 || !(halfLifeDays > 0)) {
    return candidates.map(() => null);
  }
  const newest = Math.max(...valid);
  return times.map((t) => (Number.isFinite(t) ? 2 ** (-(newest - t) / DAY_MS / halfLifeDays) : 0));
}
