import { fusionScores } from '@app/rerank';

import { type ScoredCandidate } from '../../src/context/evidence/evidence-assembler';
import { MONTHS } from './locomo';
import { type ProbePool, RRF_K, type Win } from './locomo-probe-pool';

const DAY_MS = 86_400_000;
/** Score factor of a window dated inside the question's range. */
const BOOST = 1.5;
/** Days after a range still counted in it (a trip told about the week after). */
const SLACKS = [0, 7, 14];
/** Hybrid lists fetched this deep for a dated question, and how many of the range's join. */
const DEEP: Array<[number, number]> = [
  [40, 5],
  [60, 3],
];

/**
 * The time ranges a question names ("on May 3, 2023", "13 October, 2023", "in July 2023",
 * "in June", "in 2023"), as [from, to) epoch ms; a month without a year is that month in
 * every year of `times` (the contact's history). Undefined when it names none.
 */
function questionRange(
  question: string,
  times: readonly number[],
): Array<[number, number]> | undefined {
  const q = question.toLowerCase();
  const month = `(${MONTHS.join('|')})`;
  const day = (y: string, m: string, d: string): Array<[number, number]> => {
    const from = Date.UTC(Number(y), MONTHS.indexOf(m), Number(d));
    return [[from, from + DAY_MS]];
  };
  const monthDay = new RegExp(`\\b${month}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`).exec(q);
  if (monthDay) {
    return day(monthDay[3], monthDay[1], monthDay[2]);
  }
  const dayMonth = new RegExp(`\\b(\\d{1,2})\\s+${month},?\\s+(\\d{4})\\b`).exec(q);
  if (dayMonth) {
    return day(dayMonth[3], dayMonth[2], dayMonth[1]);
  }
  const monthYear = new RegExp(`\\b${month},?\\s+(\\d{4})\\b`).exec(q);
  if (monthYear) {
    const [m, y] = [MONTHS.indexOf(monthYear[1]), Number(monthYear[2])];
    return [[Date.UTC(y, m, 1), Date.UTC(y, m + 1, 1)]];
  }
  const bare = new RegExp(`\\b(?:in|during|of|early|late|mid)\\s+${month}\\b`).exec(q);
  if (bare) {
    const m = MONTHS.indexOf(bare[1]);
    const years = [...new Set(times.map((t) => new Date(t).getUTCFullYear()))];
    return years.map((y) => [Date.UTC(y, m, 1), Date.UTC(y, m + 1, 1)]);
  }
  const year = /\b(?:in|during)\s+(20\d\d)\b/.exec(q);
  if (year) {
    const y = Number(year[1]);
    return [[Date.UTC(y, 0, 1), Date.UTC(y + 1, 0, 1)]];
  }
  return undefined;
}

/**
 * Dates in the question, for one question's k-20 pool (`base`, fused `scores`). `add(name,
 * pool)` tallies a row over every question (a question naming no date keeps the pool as is);
 * `dated(name, pool | contents)` tallies the dated questions alone. Rows per slack:
 * - `date_{s}`: the range's windows in the pool score × 1.5 (a prior, no new query);
 * - `dateleg5_{s}`: the range's 5 best windows of the whole history (by both lists' ranks)
 *   join, with full-depth signals, then the prior: a store query with a time filter;
 * - `deepdate{d}n{n}_{s}`: the hybrid lists fetched `d` deep, the range's `n` best of those
 *   join with the ranks they had: no new query, a deeper one for dated questions;
 * - `rangeleg5_{s}`: as a hybrid statement with a time filter returns them: the range's 5
 *   best by both lists' ranks inside it, joined with their cosine and BM25 score, no rank;
 * - `densedate_{s}`: the range's 5 best by cosine join with their cosine only (a dense
 *   search with a time filter), the range × 2;
 * - `inpool_{s}` / `inrange_{s}` (dated only): the range's windows in the pool / in the
 *   whole history, whole (ceilings).
 */
export function dateRows(
  pp: ProbePool,
  base: readonly Win[],
  scores: readonly number[],
  add: (name: string, pool: ScoredCandidate[]) => void,
  dated: (name: string, pool: ScoredCandidate[] | string[]) => void,
) {
  const range = questionRange(
    pp.question,
    pp.ws.map((w) => Date.parse(w.occurredAt)),
  );
  const plain = pp.scored(base, scores);
  const names = (s: number) => [
    `date_${s}`,
    `dateleg5_${s}`,
    ...DEEP.map(([d, n]) => `deepdate${d}n${n}_${s}`),
    `densedate_${s}`,
    `rangeleg5_${s}`,
  ];
  if (!range) {
    SLACKS.forEach((s) => names(s).forEach((name) => add(name, plain)));
    return;
  }
  dated('base', plain);
  for (const slack of SLACKS) {
    const inside = (w: Win) => {
      const t = Date.parse(w.occurredAt);
      return range.some(([from, to]) => t >= from && t < to + slack * DAY_MS);
    };
    const boosted = (all: readonly Win[], s: readonly number[], boost = BOOST) =>
      pp.scored(
        all,
        s.map((x, i) => (inside(all[i]) ? x * boost : x)),
      );
    const both = (name: string, pool: ScoredCandidate[]) => {
      add(name, pool);
      dated(name, pool);
    };
    both(`date_${slack}`, boosted(base, scores));
    const best = (from: readonly Win[], by: (w: Win) => number, n: number) =>
      from
        .filter((w) => inside(w) && !base.includes(w))
        .sort((a, b) => by(b) - by(a))
        .slice(0, n);
    const leg = pp.fused(
      base,
      20,
      best(pp.ws, (w) => pp.winRrf(w), 5),
    );
    both(`dateleg5_${slack}`, boosted(leg.all, leg.scores));
    for (const [depth, n] of DEEP) {
      const reach = [...new Set([...pp.dense.slice(0, depth), ...pp.lexical.slice(0, depth)])];
      const joined = best(reach, (w) => pp.winRrf(w), n);
      const all = [...base, ...joined];
      const s = fusionScores(pp.question, [
        ...base.map((w) => pp.signals(w, 20)),
        ...joined.map((w) => pp.signals(w, depth)),
      ]);
      both(`deepdate${depth}n${n}_${slack}`, boosted(all, s));
    }
    // As a filtered hybrid statement returns them: ranked inside the range, joined with
    // their cosine and BM25 score but no list rank (a rank inside the range is not one in
    // the contact's lists).
    const inRange = pp.ws.filter(inside);
    const rrfIn = (w: Win) => {
      const d = pp.dense.filter((x) => inRange.includes(x)).indexOf(w);
      const l = pp.lexical.filter((x) => inRange.includes(x)).indexOf(w);
      return 1 / (RRF_K + d + 1) + (l >= 0 ? 1 / (RRF_K + l + 1) : 0);
    };
    const ranged = best(pp.ws, rrfIn, 5);
    const rangedAll = [...base, ...ranged];
    const rangedScores = fusionScores(pp.question, [
      ...base.map((w) => pp.signals(w, 20)),
      ...ranged.map((w) => ({
        ...pp.signals(w, pp.ws.length),
        denseRank: undefined,
        lexicalRank: undefined,
      })),
    ]);
    both(`rangeleg5_${slack}`, boosted(rangedAll, rangedScores));
    const near = best(pp.ws, (w) => pp.cosine.get(w)!, 5);
    const all = [...base, ...near];
    const s = fusionScores(pp.question, [
      ...base.map((w) => pp.signals(w, 20)),
      ...near.map((w) => ({
        id: w.id,
        content: w.text,
        denseScore: pp.cosine.get(w),
        occurredAt: w.occurredAt,
      })),
    ]);
    both(`densedate_${slack}`, boosted(all, s, 2));
    dated(
      `inpool_${slack}`,
      base.filter(inside).map((w) => w.text),
    );
    dated(
      `inrange_${slack}`,
      pp.ws.filter(inside).map((w) => w.text),
    );
  }
}
