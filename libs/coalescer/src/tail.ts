/**
 * Speaking rate used to turn a tail given in milliseconds into words: 150 words a minute is
 * the usual conversational figure (2.5 words a second).
 */
export const WORDS_PER_SECOND = 2.5;

/**
 * Words that cover `ms` of speech, rounded up and never below one: the spec's 200 ms is half
 * a word, and half a word is exactly the cut this feature exists to repair.
 */
export function tailWordsForMs(ms: number): number {
  return Math.max(1, Math.ceil((ms / 1000) * WORDS_PER_SECOND));
}

/** Whitespace-separated words; never splits inside one. */
export function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/**
 * The last `n` words of `ws`, joined by single spaces, and at most `maxChars` long: leading
 * words are dropped until it fits, so a pasted megabyte "word" yields an empty tail rather
 * than a cut one or an unbounded one.
 */
export function wordTail(ws: readonly string[], n: number, maxChars: number): string {
  const kept = n > 0 ? ws.slice(-n) : [];
  let length = kept.reduce((sum, w) => sum + w.length, 0) + Math.max(0, kept.length - 1);
  let from = 0;
  while (from < kept.length && length > maxChars) {
    length -= kept[from].length + (from < kept.length - 1 ? 1 : 0);
    from++;
  }
  return kept.slice(from).join(' ');
}

/**
 * How many leading words of `chunk` repeat the end of `tail` (case-insensitive). Some
 * streaming transcribers resend the last words of the previous segment; prepending the
 * tail would then double them. Only overlaps of two or more words count, so a genuinely
 * repeated single word ("no, no") is left alone.
 */
export function overlapLength(tail: readonly string[], chunk: readonly string[]): number {
  const max = Math.min(tail.length, chunk.length);
  for (let n = max; n >= 2; n--) {
    let same = true;
    for (let i = 0; i < n && same; i++) {
      same = tail[tail.length - n + i].toLowerCase() === chunk[i].toLowerCase();
    }
    if (same) {
      return n;
    }
  }
  return 0;
}
