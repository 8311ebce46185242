import { allMatches } from '../all-matches';
import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import { type Detection, type DetectorOptions, hasContext } from './detector';

/**
 * Numbers printed in ads, wallets and SSA examples. They are valid-range but belong to no
 * customer, and they show up in test data and docs, so masking them would only add noise.
 */
const SAMPLE_SSNS: ReadonlySet<string> = new Set([
  '078051120', // the Woolworth wallet insert
  '219099999', // SSA pamphlet
  '123456789',
  '457555462', // LifeLock advertising
]);

/**
 * True for nine digits (`digits[from..to)`) that the SSA could have issued: area not 000,
 * 666 or 900–999, group not 00, serial not 0000; known sample numbers are excluded.
 */
export function isSsn(digits: string, from = 0, to = digits.length): boolean {
  if (to - from !== 9) {
    return false;
  }
  const at = (i: number): number => digits.charCodeAt(from + i) - 48;
  const area = at(0) * 100 + at(1) * 10 + at(2);
  const group = at(3) * 10 + at(4);
  const serial = at(5) * 1000 + at(6) * 100 + at(7) * 10 + at(8);
  if (area === 0 || area === 666 || area >= 900 || group === 0 || serial === 0) {
    return false;
  }
  return !SAMPLE_SSNS.has(from === 0 && to === digits.length ? digits : digits.slice(from, to));
}

/**
 * 3-2-4 with one delimiter (dash, space or dot) used twice: the back-reference makes `123-45 6789` (mixed
 * delimiters) fail to match at all. Not glued to words or to a further `-digit`, so a
 * fragment of `ABC-123-45-6789-0` is not a start.
 */
const DELIMITED = linear(/(?<![\w.-])(\d{3})([- .])(\d{2})\2(\d{4})(?![\w]|[.-]\d)/g);

/**
 * Near an SSN keyword, any way of writing nine digits counts: bare, dotted, slashed, mixed
 * ("536-22 1234"), or in an unusual grouping (3-3-3, 3-6, 5-4). Up to four groups joined
 * by single separators; bounded, so matching is linear.
 */
const CONTEXT_RUN = linear(/(?<![\w.,/-])\d{1,9}(?:[ ./-]\d{1,9}){0,3}(?![\w]|[.,/-]\d)/g);
const NINE_DIGITS = /^\d{9}$/;
const NON_DIGITS = /\D/g;

/** Words that announce an SSN; without one, nine bare digits are more often an id. */
const SSN_CONTEXT = linear(
  /(?:\b(?:ssn|ssns|social(?:\s{1,8}security)?|soc\.?\s{0,8}sec|tax\s{0,8}id|tin|itin|s\.\s?s\.\s?n)\b|\bss\s?(?:#|no\b))/i,
);

/**
 * Written SSNs: a valid ({@link isSsn}) delimited 3-2-4 anywhere; near an SSN keyword, any
 * nine digits in any layout. The validity ranges and the sample list keep ids and docs'
 * examples out where nothing says "SSN"; once the customer says it is their SSN (or ITIN,
 * whose area is 9xx), an out-of-range or sample-looking number is still theirs, or a typo
 * one digit away from it, so it is masked.
 */
export function detectSsns(text: string, _options: DetectorOptions, out: Detection[]): void {
  for (const m of allMatches(DELIMITED, text)) {
    if (isSsn(m[1] + m[3] + m[4])) {
      out.push({
        type: 'US_SSN',
        start: m.index,
        end: m.index + m[0].length,
        score: BASE_CONFIDENCE.US_SSN,
      });
    }
  }
  if (!SSN_CONTEXT.test(text)) {
    return; // no keyword anywhere: skip the contextual scan
  }
  for (const m of allMatches(CONTEXT_RUN, text)) {
    const end = m.index + m[0].length;
    if (
      m[0].length >= 9 &&
      m[0].length <= 12 &&
      NINE_DIGITS.test(m[0].replace(NON_DIGITS, '')) &&
      hasContext(text, m.index, end, SSN_CONTEXT, 40, 24)
    ) {
      out.push({ type: 'US_SSN', start: m.index, end, score: BASE_CONFIDENCE.US_SSN - 0.05 });
    }
  }
}
