import type { CountryCode } from 'libphonenumber-js/max';

import type { EntityType } from '../entity-types';

/** One candidate entity: a half-open `[start, end)` span of the scanned text. */
export interface Detection {
  type: EntityType;
  start: number;
  end: number;
  /** Confidence in `[0, 1]`; breaks ties between overlapping spans of equal length. */
  score: number;
}

/** What every detector is told about the redactor's configuration. */
export interface DetectorOptions {
  enabled: ReadonlySet<EntityType>;
  phoneRegions: readonly CountryCode[];
}

/** A detector appends candidates to `out`; overlap resolution happens afterwards. */
export type DetectFn = (text: string, options: DetectorOptions, out: Detection[]) => void;

/**
 * True when `pattern` matches in the `before` characters preceding `start` or the `after`
 * characters following `end`. Patterns are precompiled and non-global, so `test` is
 * stateless; slicing keeps each check bounded no matter how long the text is.
 */
export function hasContext(
  text: string,
  start: number,
  end: number,
  pattern: RegExp,
  before: number,
  after = 0,
): boolean {
  if (before > 0 && pattern.test(text.slice(Math.max(0, start - before), start))) {
    return true;
  }
  return after > 0 && pattern.test(text.slice(end, end + after));
}

/**
 * Labels that make the digits that follow an identifier of something else: an order, a
 * ticket, a price. Anchored at the end so only the words right before the number count.
 * Used to keep order numbers and prices from being read as phone numbers.
 */
export const NON_PHONE_LABEL =
  /(?:[#$€£¥]|\b(?:order|invoice|inv|ref|reference|confirmation|conf|tracking|ticket|case|booking|reservation|transaction|txn|sku|item|part|serial|model|receipt|account|acct|flight|room|version|ver|build)\b\W{0,3}(?:(?:no|num|number|id)\b\W{0,3})?)$/i;

const NON_DIGITS = /\D+/g;

/** Number of ASCII digits in `s`, without allocating. */
export function countDigits(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c >= 48 && c <= 57 ? 1 : 0;
  }
  return n;
}

/** Digits only, e.g. `"4111-1111"` → `"41111111"`. */
export function digitsOf(s: string): string {
  return s.replace(NON_DIGITS, '');
}
