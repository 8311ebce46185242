import { type TokenCounterLike } from '../tokenizer/token-counter';

/** Which end of the text survives a cut. */
export type KeepSide = 'start' | 'end';

/** Result of {@link truncateToTokens}. */
export interface TruncateResult {
  text: string;
  /** True when anything was removed. */
  truncated: boolean;
  /** Exact token count of `text`. */
  tokens: number;
  /** Whether the cut fell on a sentence boundary (`false` for word-boundary cuts). */
  atSentence: boolean;
}

/**
 * A word's last character ends a sentence: `.`, `!`, `?` or `…`, optionally followed by a
 * closing quote or bracket. "Mr." also matches; rare in transcripts and harmless (the cut
 * is still at a word boundary).
 */
const SENTENCE_END = /[.!?…]["'”’)\]]*$/;

/**
 * A sentence cut is preferred only while it keeps at least this share of what a word cut
 * would keep: one short opening sentence should not throw away most of a paragraph.
 */
const SENTENCE_MIN_SHARE = 0.5;

interface Word {
  start: number;
  end: number;
  endsSentence: boolean;
}

function words(text: string): Word[] {
  return [...text.matchAll(/\S+/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
    endsSentence: SENTENCE_END.test(m[0]),
  }));
}

/**
 * Largest candidate (by position in `candidates`) whose piece fits. Token counts of nested
 * prefixes/suffixes are monotone in practice but not guaranteed for BPE, so the search only
 * ever returns a candidate it actually measured as fitting.
 */
function largestFitting(
  count: number,
  piece: (i: number) => string,
  maxTokens: number,
  counter: TokenCounterLike,
): number {
  let lo = 0;
  let hi = count - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (counter.fits(piece(mid), maxTokens)) {
      best = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best;
}

/**
 * Cuts `text` to at most `maxTokens` tokens, never inside a word. With `keep: 'start'` the
 * head survives (excerpts); with `keep: 'end'` the tail survives (a live transcript, whose
 * latest words matter most). A sentence boundary is preferred, falling back to a word
 * boundary when no sentence fits or the sentence cut would keep under half as much. If not
 * even one word fits, the result is empty.
 */
export function truncateToTokens(
  text: string,
  maxTokens: number,
  counter: TokenCounterLike,
  keep: KeepSide = 'start',
): TruncateResult {
  const budget = Math.max(0, Math.floor(maxTokens));
  if (counter.fits(text, budget)) {
    return { text, truncated: false, tokens: counter.count(text), atSentence: true };
  }
  const ws = words(text);
  // Cut candidates as [from, to) spans, ordered from least to most text kept; sliced only
  // when measured, so a long text does not materialise every prefix.
  const spans: Array<[number, number]> =
    keep === 'start'
      ? ws.map((w) => [0, w.end])
      : ws.map((w): [number, number] => [w.start, text.length]).reverse();
  const sentenceSafe =
    keep === 'start'
      ? ws.map((w) => w.endsSentence)
      : ws.map((w, i) => i === 0 || ws[i - 1].endsSentence).reverse();
  const slice = ([from, to]: [number, number]): string => text.slice(from, to);

  const wordIdx = largestFitting(spans.length, (i) => slice(spans[i]), budget, counter);
  if (wordIdx < 0) {
    return { text: '', truncated: true, tokens: 0, atSentence: false };
  }
  const wordText = slice(spans[wordIdx]);
  const wordTokens = counter.count(wordText);
  const sentenceSpans = spans.slice(0, wordIdx + 1).filter((_, i) => sentenceSafe[i]);
  const sIdx = largestFitting(
    sentenceSpans.length,
    (i) => slice(sentenceSpans[i]),
    budget,
    counter,
  );
  if (sIdx >= 0) {
    const sentenceText = slice(sentenceSpans[sIdx]);
    const sentenceTokens = counter.count(sentenceText);
    if (sentenceTokens >= wordTokens * SENTENCE_MIN_SHARE) {
      return { text: sentenceText, truncated: true, tokens: sentenceTokens, atSentence: true };
    }
  }
  return { text: wordText, truncated: true, tokens: wordTokens, atSentence: false };
}
