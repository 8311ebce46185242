import { type TokenCounterLike } from '../tokenizer/token-counter';
import { truncateToTokens } from './truncate';

/** The fields the budget reads; everything else on an excerpt is carried through untouched. */
export interface BudgetedExcerpt {
  content: string;
  rerank_score: number;
  truncated?: boolean;
}

/** Tuning for {@link enforceBudget}. */
export interface EnforceBudgetOptions {
  /**
   * Smallest leftover (in tokens) worth filling with a truncated excerpt once at least one
   * whole excerpt is kept. Below ~32 tokens a fragment is a sentence or two of mid-story
   * context that costs the model attention without telling it much. Default 32.
   */
  minTruncatedTokens?: number;
}

/** Output of {@link enforceBudget}. */
export interface BudgetResult<T> {
  /** Kept excerpts, highest `rerank_score` first; a cut one is a copy with `truncated: true`. */
  excerpts: T[];
  /** Exact token count: the sum of `counter.count(e.content)` over the kept excerpts. */
  token_count: number;
  /** How many input excerpts were left out entirely (a truncated one is not dropped). */
  dropped: number;
}

export const DEFAULT_MIN_TRUNCATED_TOKENS = 32;

/** NaN scores sort last rather than poisoning the comparison. */
function score(e: BudgetedExcerpt): number {
  return Number.isNaN(e.rerank_score) ? -Infinity : e.rerank_score;
}

/**
 * Fits historical excerpts into `maxTokens` (the spec's `enforce_budget`, with an exact
 * tokenizer instead of `len / 4`).
 *
 * Rules, in order:
 * 1. Sort by `rerank_score`, descending (stable for ties).
 * 2. Keep whole excerpts from the top while they fit. The first one that does not fit ends
 *    the run: skipping it to squeeze in a smaller, lower-ranked one would break "drop the
 *    lowest-ranked first".
 * 3. That next excerpt is cut at a sentence (else word) boundary into the space left and
 *    marked `truncated: true` — if it is the best excerpt (something beats nothing), or if at
 *    least `minTruncatedTokens` remain. Everything after it is dropped.
 *
 * Blank excerpts are dropped. The input array and its objects are never mutated; whole kept excerpts are returned as is.
 */
export function enforceBudget<T extends BudgetedExcerpt>(
  excerpts: readonly T[],
  maxTokens: number,
  counter: TokenCounterLike,
  options: EnforceBudgetOptions = {},
): BudgetResult<T> {
  const budget = Math.max(0, Math.floor(maxTokens));
  const minTruncated = options.minTruncatedTokens ?? DEFAULT_MIN_TRUNCATED_TOKENS;
  const sorted = [...excerpts].sort((a, b) => score(b) - score(a));
  const kept: T[] = [];
  let used = 0;

  for (const excerpt of sorted) {
    if (excerpt.content.trim().length === 0) {
      continue; // nothing for the model to read; counted as dropped
    }
    const remaining = budget - used;
    const tokens = counter.count(excerpt.content);
    if (tokens <= remaining) {
      kept.push(excerpt);
      used += tokens;
      continue;
    }
    if (kept.length === 0 || remaining >= minTruncated) {
      const cut = truncateToTokens(excerpt.content, remaining, counter, 'start');
      if (cut.text.length > 0) {
        kept.push({ ...excerpt, content: cut.text, truncated: true });
        used += cut.tokens;
      }
    }
    break;
  }

  return { excerpts: kept, token_count: used, dropped: excerpts.length - kept.length };
}
