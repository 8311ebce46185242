import { allMatches } from '../all-matches';
import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import { countDigits, type Detection, type DetectorOptions, hasContext } from './detector';

/**
 * Card lengths by leading digit (ISO/IEC 7812 major industry identifier). Rejecting a
 * 13-digit number that does not start with 4 (only Visa issued those) and any number
 * starting with 0, 7 or 8 keeps epoch-millisecond timestamps and most order numbers out,
 * even when they happen to pass Luhn (one in ten random numbers do).
 */
// Indexed by leading digit: [min, max] length, or undefined for no card scheme.
const LENGTHS_BY_FIRST_DIGIT: ReadonlyArray<readonly [number, number] | undefined> = [
  undefined, // 0: never issued
  [15, 15], // 1: UATP
  [16, 19], // 2: Mastercard 2-series, Mir
  [14, 19], // 3: Amex, Diners, JCB
  [13, 19], // 4: Visa
  [16, 19], // 5: Mastercard, Maestro
  [16, 19], // 6: Discover, UnionPay, Maestro
  undefined, // 7: petroleum
  undefined, // 8: telecom
  [16, 19], // 9: national schemes
];

/** Luhn (mod 10) checksum over the ASCII digits `digits[from..to)`. */
export function luhnValid(digits: string, from = 0, to = digits.length): boolean {
  let sum = 0;
  let double = false;
  for (let i = to - 1; i >= from; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/**
 * True when the ASCII digits `digits[from..to)` are a plausible payment card number:
 * issuer-consistent length and a Luhn pass. Works on a range so callers validating many
 * windows of one digit string allocate nothing.
 */
export function isCardNumber(digits: string, from = 0, to = digits.length): boolean {
  const length = to - from;
  const range = LENGTHS_BY_FIRST_DIGIT[digits.charCodeAt(from) - 48];
  if (!range || length < range[0] || length > range[1]) {
    return false;
  }
  // All-same-digit strings such as 4444444444444444 are fillers, not cards.
  let same = true;
  for (let i = from + 1; i < to && same; i++) {
    same = digits.charCodeAt(i) === digits.charCodeAt(from);
  }
  return !same && luhnValid(digits, from, to);
}

/** Words that name a card: near one, a number read out in pairs or threes is a card. */
const CARD_CONTEXT = linear(
  /\b(?:card|cards|visa|mastercard|amex|american\s{1,4}express|discover|maestro|credit|debit|cc|pan)\b/i,
);

/**
 * The groupings card numbers are printed and typed in: one unbroken run; fours with a
 * shorter tail (4-4-4-4, 4-4-4-4-3, 4-4-4-1); Amex 4-6-5 and Diners 4-6-4. Near a card
 * word (`named`), also even pairs or threes with a shorter tail, as a number is read out
 * or typed to dodge a filter ("card 41 11 11 11 …"); without one, such runs are codes.
 */
function usualGrouping(lengths: readonly number[], named: boolean): boolean {
  if (lengths.length === 1) {
    return true;
  }
  if (lengths.length === 3 && lengths[0] === 4 && lengths[1] === 6) {
    return lengths[2] === 4 || lengths[2] === 5;
  }
  const size = lengths[0];
  if (size < (named ? 2 : 4) || size > 4) {
    return false;
  }
  const last = lengths.length - 1;
  for (let i = 0; i < last; i++) {
    if (lengths[i] !== size) {
      return false;
    }
  }
  return lengths[last] >= 1 && lengths[last] <= size;
}

/**
 * A run of digit groups joined by single spaces, dashes, dots, slashes, underscores, bars,
 * colons, commas or pluses (people type `4111.1111.1111.1111`, `4111_1111_…` and `4111|1111|…` to
 * dodge filters; the grouping and Luhn checks below keep decimals, dates, times and
 * thousands groupings out), not glued to letters, decimals
 * or another dash-number (so `ABC-4111…` and `1.5` are not starts). Group sizes are bounded
 * and separators mandatory between groups, so matching is linear; the look-ahead for 13
 * digits rejects ordinary numbers inside the engine, before a match is allocated.
 */
const GROUP_RUN = linear(
  /(?=\d)(?<![\w.,/+-])(?=(?:[ ./_|:,+-]?\d){13})\d{1,19}(?:[ ./_|:,+-]\d{1,19}){0,9}(?![\w]|[.,/+-]\d)/g,
);
const GROUP = /\d+/g;

/**
 * Written card numbers: every run of digit groups is split into groups, and each
 * contiguous sub-run with 13–19 digits in a usual grouping that passes
 * {@link isCardNumber} becomes a candidate. Trying sub-runs finds the card in
 * "4111 1111 1111 1111 12/27" or after a stray leading number.
 */
export function detectCreditCards(text: string, _options: DetectorOptions, out: Detection[]): void {
  for (const run of allMatches(GROUP_RUN, text)) {
    if (run[0].length < 13 || countDigits(run[0]) < 13) {
      continue; // most numbers in prose: too few digits to hold a card
    }
    const groups = [...allMatches(GROUP, run[0])];
    const base = run.index;
    const named = hasContext(text, base, base + run[0].length, CARD_CONTEXT, 40, 24);
    for (let i = 0; i < groups.length; i++) {
      let digits = '';
      const lengths: number[] = [];
      for (let j = i; j < groups.length && digits.length < 19; j++) {
        digits += groups[j][0];
        lengths.push(groups[j][0].length);
        if (digits.length >= 13 && digits.length <= 19 && usualGrouping(lengths, named)) {
          if (isCardNumber(digits)) {
            const start = base + groups[i].index;
            const end = base + groups[j].index + groups[j][0].length;
            out.push({ type: 'CREDIT_CARD', start, end, score: BASE_CONFIDENCE.CREDIT_CARD });
          }
        }
      }
    }
  }
}
