import { byteBound, NUMBER_BYTES, sweepStale, TEXT_CACHE_TTL } from '@app/common';
import { LRUCache } from 'lru-cache';

/** The BPE vocabularies {@link TokenCounter} can load. */
export type TokenizerEncoding = 'o200k_base' | 'cl100k_base';

type EncodingApi = Pick<
  typeof import('gpt-tokenizer/encoding/o200k_base'),
  'countTokens' | 'isWithinTokenLimit'
>;

/**
 * Loads one vocabulary. `require` rather than a top-level import so that only the chosen
 * encoding's rank table is parsed (~0.13-0.35 s and ~20 MB each); the switch is exhaustive,
 * so adding a name to {@link TokenizerEncoding} without a loader fails to compile.
 */
function loadEncoding(encoding: TokenizerEncoding): EncodingApi {
  switch (encoding) {
    case 'o200k_base':
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require('gpt-tokenizer/encoding/o200k_base') as EncodingApi;
    case 'cl100k_base':
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      return require('gpt-tokenizer/encoding/cl100k_base') as EncodingApi;
  }
}

/**
 * Customer text is data, not control: `<|endoftext|>` typed by a caller must be counted as
 * the ordinary characters an LLM API would see, never rejected (gpt-tokenizer's default
 * throws on special tokens) nor collapsed into one special token.
 */
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Bytes of cached texts and counts: about 2 million characters, a few thousand excerpts. */
const CACHED_BYTES = 4 * 1024 * 1024;

/** What the budget functions need from a tokenizer; {@link TokenCounter} is the real one. */
export interface TokenCounterLike {
  count(text: string): number;
  fits(text: string, limit: number): boolean;
}

/**
 * Exact token counts for one BPE vocabulary (gpt-tokenizer). Build it once per process —
 * the rank table is parsed on construction — and inject it; the class is its own Nest token.
 */
export class TokenCounter implements TokenCounterLike {
  private readonly api: EncodingApi;
  /**
   * Counts of recent texts, short ones included. A live call asks every ~800 ms and mostly
   * gets the same excerpts back, and BPE-encoding them was the largest single cost of the
   * /context main thread (~0.5 ms a request). Fitting to the budget counts every turn of
   * every excerpt: a 30-character turn takes ~4-7 µs to encode and ~0.2-0.4 µs to look up.
   * Bounded by the bytes held; memory only, never logged.
   */
  private readonly recent = sweepStale(
    new LRUCache<string, number>({
      ...byteBound<number>(CACHED_BYTES, () => NUMBER_BYTES),
      ...TEXT_CACHE_TTL, // excerpts: an erased contact's text expires too
    }),
  );

  constructor(readonly encoding: TokenizerEncoding = 'o200k_base') {
    this.api = loadEncoding(encoding);
  }

  /** Number of tokens `text` encodes to, special-token look-alikes counted as plain text. */
  count(text: string): number {
    if (text.length === 0) {
      return 0;
    }
    let n = this.recent.get(text);
    if (n === undefined) {
      n = this.api.countTokens(text, AS_PLAIN_TEXT);
      this.recent.set(text, n);
    }
    return n;
  }

  /** True when `text` is at most `limit` tokens; stops encoding early on long inputs. */
  fits(text: string, limit: number): boolean {
    if (limit < 0) {
      return false;
    }
    return text.length === 0 || this.api.isWithinTokenLimit(text, limit, AS_PLAIN_TEXT) !== false;
  }
}

/**
 * Wraps a counter with a per-use cache. Prompt assembly re-measures the same excerpt and
 * block texts while it searches for the largest fitting budget; the cache makes every
 * repeat free. Keep one per operation: it holds the texts it has seen.
 */
export function memoizeCounter(counter: TokenCounterLike): TokenCounterLike {
  const counts = new Map<string, number>();
  return {
    count(text) {
      let n = counts.get(text);
      if (n === undefined) {
        n = counter.count(text);
        counts.set(text, n);
      }
      return n;
    },
    fits(text, limit) {
      const n = counts.get(text);
      return n === undefined ? counter.fits(text, limit) : limit >= 0 && n <= limit;
    },
  };
}
