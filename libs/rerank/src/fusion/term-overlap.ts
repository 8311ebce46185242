import { byteBound, stringsBytes, sweepStale, TEXT_CACHE_TTL } from '@app/common';
import { LRUCache } from 'lru-cache';

import { contentTokens, unlabelled } from './text';

/** Pool-level IDF needs a few documents to mean anything; below this every term weighs 1. */
const MIN_POOL_FOR_IDF = 4;

/** Credit for a prefix match ("refund" ~ "refunded"): useful, but weaker than the exact word. */
const PREFIX_CREDIT = 0.75;

/**
 * True when one token is a short inflection of the other ("order"/"ordered",
 * "table"/"tables"). A cheap stand-in for stemming that needs no word lists; the 4-letter
 * floor and 3-letter cap keep "car"/"cart" and "ship"/"shipping" apart.
 */
function prefixMatch(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 4 && long.length - short.length <= 3 && long.startsWith(short);
}

/**
 * A window's content words, by its text. The same windows come back turn after turn of a
 * call, and tokenizing ~40 candidates per request was a visible share of the /context main
 * thread (profiled). The sets are shared: read them, never change them. Keyed by the whole
 * text, which `/relevance` callers choose: bounded in bytes, the text and its terms both
 * charged. Exported for tests.
 */
export const termCache = sweepStale(
  new LRUCache<string, ReadonlySet<string>>({
    ...byteBound<ReadonlySet<string>>(32 * 1024 * 1024, stringsBytes),
    ...TEXT_CACHE_TTL, // an erased contact's windows (and their words) expire too
  }),
);

/** A text's content words, memoised by text (shared sets: read them, never change them). */
export function windowTerms(content: string): ReadonlySet<string> {
  let terms = termCache.get(content);
  if (!terms) {
    terms = new Set(contentTokens(unlabelled(content)));
    termCache.set(content, terms);
  }
  return terms;
}

/**
 * How much of the query each candidate covers, in [0, 1]: the IDF-weighted share of the
 * query's distinct content words found in the candidate (exact match 1, prefix match 0.75).
 * IDF is computed over the candidate pool itself, so a word every candidate shares (the
 * product everyone called about) counts less than the one word that singles a window out.
 * With fewer than four candidates (the `/relevance` case) all words weigh the same.
 */
export function termOverlap(query: string, documents: readonly string[]): number[] {
  const queryTerms = [...new Set(contentTokens(query))];
  if (queryTerms.length === 0) {
    return documents.map(() => 0);
  }
  const docTerms = documents.map(windowTerms);

  const credit = (term: string, terms: ReadonlySet<string>): number => {
    if (terms.has(term)) {
      return 1;
    }
    for (const t of terms) {
      if (prefixMatch(term, t)) {
        return PREFIX_CREDIT;
      }
    }
    return 0;
  };
  const credits = docTerms.map((terms) => queryTerms.map((q) => credit(q, terms)));

  const n = documents.length;
  const weights = queryTerms.map((_, qi) => {
    if (n < MIN_POOL_FOR_IDF) {
      return 1;
    }
    const df = credits.reduce((sum, c) => sum + (c[qi] > 0 ? 1 : 0), 0);
    // BM25's IDF, shifted by one so it stays positive when a word is in every candidate.
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  });
  const total = weights.reduce((a, b) => a + b, 0);
  return credits.map((c) => c.reduce((sum, x, qi) => sum + x * weights[qi], 0) / total);
}
