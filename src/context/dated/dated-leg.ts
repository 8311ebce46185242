import { type OccurredRange } from '@app/vector';

import { type PoolCandidate } from '../../retrieval/hybrid-search.service';
import { questionRange } from './question-range';

/**
 * The date-filtered leg of a question that names a date (issue 40): the range's best windows
 * join the pool, and every pool window inside the range outranks its score. Each constant was
 * chosen on LoCoMo-dev half a and held on half b (`bench/locomo-tune.ts --sessions`, the
 * `rangeleg5_7` row; docs/benchmarks.md).
 */

/** Days after a range still counted in it: a trip is told about the week after. */
export const DATED_SLACK_DAYS = 7;
/** Windows of the range's own lists that join the pool (those not in it already). */
export const DATED_JOIN = 5;
/** How much a window inside the range outweighs one outside (a score ratio). */
export const DATED_WEIGHT = 1.5;

const DAY_MS = 86_400_000;

/** The store filter's range for the date `query` names, slack included; none when it names none. */
export function datedRange(query: string, reference?: Date): OccurredRange | undefined {
  const range = questionRange(query, reference);
  return (
    range && {
      from: range.from.toISOString(),
      to: new Date(range.to.getTime() + DATED_SLACK_DAYS * DAY_MS).toISOString(),
    }
  );
}

/**
 * A request's `asked_at` as the reference its dates resolve against: the caller's wall clock,
 * the UTC offset dropped. Ranges are UTC days (as a named date's are), so "yesterday" asked at
 * 21:00-07:00 is the caller's yesterday, not the UTC day that began three hours before.
 */
export function callerClock(askedAt: string): Date {
  return new Date(askedAt.replace(/(?:Z|[+-]\d\d:\d\d)$/, 'Z'));
}

/**
 * The pool with the range's best {@link DATED_JOIN} windows it lacks appended. Their ranks
 * were inside the range, not the contact's lists, so they join with their cosine and BM25
 * score only (fusion then weighs them by those).
 */
export function joinDated(
  pool: readonly PoolCandidate[],
  dated: readonly PoolCandidate[] | undefined,
): PoolCandidate[] {
  if (!dated?.length) {
    return [...pool];
  }
  const held = new Set(pool.map((c) => c.id));
  const joined = dated
    .filter((c) => !held.has(c.id))
    .slice(0, DATED_JOIN)
    .map((c) => ({ ...c, denseRank: undefined, lexicalRank: undefined }));
  return [...pool, ...joined];
}

/**
 * Scores weighted by the range: a window outside it keeps 1 / {@link DATED_WEIGHT} of its
 * score (the same order as × weight inside, and scores stay in [0, 1]). A window with no
 * readable time counts as outside.
 */
export function weighByRange(
  candidates: readonly PoolCandidate[],
  scores: readonly number[],
  range: OccurredRange,
): number[] {
  const [from, to] = [Date.parse(range.from), Date.parse(range.to)];
  return scores.map((score, i) => {
    const t = Date.parse(candidates[i].payload.occurred_at);
    return t >= from && t < to ? score : score / DATED_WEIGHT;
  });
}
