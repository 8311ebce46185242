import { type CountryCode, parsePhoneNumberFromString } from 'libphonenumber-js/max';

import { allMatches } from '../all-matches';
import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import {
  countDigits,
  type Detection,
  type DetectorOptions,
  digitsOf,
  hasContext,
  NON_PHONE_LABEL,
} from './detector';
import { validNanp } from './nanp-plan';
import {
  looksLikeOtherNumber,
  OTHER_NUMBER,
  PHONE_CONTEXT,
  validInAnyRegion,
} from './phone-international';

/**
 * A run of digit groups that could be a phone number: optional `+country`, optional
 * `(area)`, then groups joined by one space, dot or dash. It refuses to start inside a
 * word, after a currency sign or `#`, after `word-` (order ids like `ABC-1234567`) or
 * inside a decimal, and refuses to end before `/`, `:digit` (times), a decimal or a word
 * character other than an extension (`x12`, `ext`).
 * Separators are mandatory between groups, so matching stays linear. The look-ahead for
 * seven digits lets the engine drop the many short numbers of prose ("2 people at 5")
 * without allocating a match for each.
 */
const CANDIDATE = linear(
  /(?=[+(\d])(?<![\w+$#€£¥/]|\w-|\d[.,])(?=(?:\D{0,3}\d){7})(?:\+\d{1,3}[ .-]?)?(?:\(\d{1,4}\)[ .-]?)?\d{1,14}(?:[ .-]\d{1,14}){0,6}(?:(?=x\d|ext)|(?![\w/]|[.,-]\d|:\d))/g,
);
/** One group of a candidate, keeping its `+` or parentheses. */
const GROUP = /\+?\(?\d+\)?/g;
const HAS_SEPARATOR = /[ .()-]/;
/** Calendar dates (`2024-03-14`, `03.14.1985`) share the shape of some national numbers. */
const DATE_SHAPE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4})$/;
const DOTTED_QUAD = /^\d{1,3}(?:\.\d{1,3}){3}$/;
/** Two groups joined by a dot is a decimal number, whatever its digits. */
const DECIMAL = /^\d+\.\d+$/;
/**
 * NANP numbers written in a phone layout: `555-0199`, `(555) 0100`, `(415) 555-0134`,
 * `+1 415.555.0134`, `+14155550134`. The layout is itself the evidence, so the
 * numbering-plan structure (area code and exchange start 2–9) is enough and fictional 555
 * numbers still count; bare digit strings have no layout and go through libphonenumber's
 * full validation.
 */
const NANP_LOCAL = /^\(?[2-9]\d{2}\)?[-. ]?\d{4}$/;
const NANP_FORMATTED =
  /^(?:\+?1[ .-]?)?(?:\([2-9]\d{2}\) ?|[2-9]\d{2}[ .-]?)[2-9]\d{2}[ .-]?\d{4}$/;
const NANP_LENGTH = /^1?\d{10}$/;
/** Three or more groups of at most four digits: how phone numbers are grouped everywhere. */
const SHORT_GROUPS = /^[(+]?\d{1,4}\)?(?:[ .-]\(?\d{1,4}\)?){2,}$/;
const NANP_E164 = /^\+1[2-9]\d{2}[2-9]\d{6}$/;
/** An international call prefix standing for the "+": "0033 6 12 34 56 78", "011 44 20 …". */
const IDD = /^(?:00|011)(?=[ .-]?[1-9])[ .-]?/;
const NANP_REGIONS: ReadonlySet<CountryCode> = new Set<CountryCode>(['US', 'CA']);

/**
 * True when dictated digits `digits[from..to)` (layout lost) form a phone number in one of
 * `regions`. For NANP regions the numbering-plan structure is enough, local 7-digit
 * numbers included: reading digits out one by one is how people give phone numbers, and
 * the number that is PII when written `555-0199` must be PII when said "five five five oh
 * one nine nine". Other regions go through libphonenumber.
 */
export function isDictatedPhone(
  digits: string,
  regions: readonly CountryCode[],
  from = 0,
  to = digits.length,
): boolean {
  for (const region of regions) {
    if (NANP_REGIONS.has(region)) {
      if (nanpDigits(digits, from, to)) {
        return true;
      }
    } else if (parsePhoneNumberFromString(digits.slice(from, to), region)?.isValid()) {
      return true;
    }
  }
  return false;
}

/**
 * Digit counts {@link isDictatedPhone} can accept for `regions`, so a caller validating
 * many windows skips the others: 7, 10 and 11 for NANP regions, any for the rest.
 */
export function dictatedPhoneLengths(regions: readonly CountryCode[]): (length: number) => boolean {
  if (regions.every((r) => NANP_REGIONS.has(r))) {
    return (length) => length === 7 || length === 10 || length === 11;
  }
  return () => true;
}

/** NANP structure on bare digits: NXX-XXXX, or [1]NXX-NXX-XXXX (N is 2–9). */
function nanpDigits(digits: string, from: number, to: number): boolean {
  const atLeast2 = (i: number): boolean => digits.charCodeAt(i) >= 50;
  switch (to - from) {
    case 7:
      return atLeast2(from);
    case 10:
      return atLeast2(from) && atLeast2(from + 3);
    case 11:
      return digits[from] === '1' && atLeast2(from + 1) && atLeast2(from + 4);
    default:
      return false;
  }
}

/** Validates one written candidate string as a phone number. */
function isWrittenPhone(raw: string, regions: readonly CountryCode[], near?: Nearby): boolean {
  const digits = digitsOf(raw);
  if (
    digits.length < 7 ||
    digits.length > 15 ||
    DATE_SHAPE.test(raw) ||
    DOTTED_QUAD.test(raw) ||
    DECIMAL.test(raw)
  ) {
    return false;
  }
  const separated = HAS_SEPARATOR.test(raw);
  if (regions.some((r) => NANP_REGIONS.has(r))) {
    if (separated ? NANP_LOCAL.test(raw) || NANP_FORMATTED.test(raw) : NANP_E164.test(raw)) {
      return true;
    }
  }
  if (raw.startsWith('+')) {
    // An international number is valid or not regardless of the configured regions.
    return parsePhoneNumberFromString(raw)?.isValid() === true;
  }
  const idd = IDD.exec(raw);
  if (idd && parsePhoneNumberFromString(`+${raw.slice(idd[0].length)}`)?.isValid() === true) {
    return true;
  }
  if (near && isContextualPhone(raw, digits, separated, near.after)) {
    return true;
  }
  if (!separated && digits.length < 10) {
    return false; // bare short digit strings are ids, amounts and dates far more often
  }
  for (const region of regions) {
    // Only 10 or 11 digits, bare or in short groups ("20 7276 5000"), can be NANP;
    // "87622673 29" is not. NANP validity is checked on compiled metadata (see
    // nanp-plan.ts); libphonenumber's parse costs tens of microseconds per region.
    if (NANP_REGIONS.has(region)) {
      if (NANP_LENGTH.test(digits) && (!separated || SHORT_GROUPS.test(raw)) && validNanp(digits)) {
        return true;
      }
    } else if (parsePhoneNumberFromString(raw, region)?.isValid()) {
      return true;
    }
  }
  return false;
}

/** Text around a candidate that has phone context: what follows it, for unit checks. */
interface Nearby {
  after: string;
}

/**
 * With a phone word nearby, a national-format number of any region counts (see
 * {@link validInAnyRegion}), unless it is shaped like a date, an amount or a quantity.
 * Bare digit strings need eight digits: shorter ones are counts and codes too often.
 */
function isContextualPhone(
  raw: string,
  digits: string,
  separated: boolean,
  after: string,
): boolean {
  if (digits.length > 13 || (!separated && digits.length < 8)) {
    return false;
  }
  return !looksLikeOtherNumber(raw, digits, after) && validInAnyRegion(raw, digits);
}

/**
 * Phone context for the candidate at `[start, end)`: a phone word shortly before or after
 * it and no other kind of number named right before it ("order number is 0123456").
 */
function phoneContext(text: string, start: number, end: number): Nearby | undefined {
  if (
    !hasContext(text, start, end, PHONE_CONTEXT, 48, 24) ||
    hasContext(text, start, end, OTHER_NUMBER, 32)
  ) {
    return undefined;
  }
  return { after: text.slice(end, end + 16) };
}

/**
 * Written phone numbers. For each candidate run the whole run is tried first, then
 * sub-runs, so "call 415 555 0134 5 times" still finds the number. A sub-run may only be
 * cut at a space (a dash or dot binds its groups: `123-456-7890` is one invalid number,
 * not a local `456-7890`), and one cut on the left must keep at least ten digits.
 * Candidates right after an order/ticket/price label are skipped.
 */
export function detectPhones(text: string, options: DetectorOptions, out: Detection[]): void {
  for (const m of allMatches(CANDIDATE, text)) {
    if (
      m[0].length < 7 ||
      countDigits(m[0]) < 7 ||
      hasContext(text, m.index, m.index, NON_PHONE_LABEL, 32)
    ) {
      continue;
    }
    const near = phoneContext(text, m.index, m.index + m[0].length);
    const found = longestValidSubrun(m[0], options.phoneRegions, near);
    if (found) {
      const start = m.index + found[0];
      out.push({ type: 'PHONE', start, end: m.index + found[1], score: BASE_CONFIDENCE.PHONE });
    }
  }
}

function longestValidSubrun(
  raw: string,
  regions: readonly CountryCode[],
  near?: Nearby,
): [number, number] | undefined {
  const groups = [...allMatches(GROUP, raw)].map((g) => [g.index, g.index + g[0].length] as const);
  const n = groups.length;
  // digitsBefore[k]: digits in groups 0..k-1, so a window's digit count costs no allocation.
  const digitsBefore = [0];
  for (let k = 0; k < n; k++) {
    digitsBefore.push(digitsBefore[k] + countDigits(raw.slice(groups[k][0], groups[k][1])));
  }
  // Windows in order of decreasing size, leftmost first: the first valid one is the answer.
  // The configured regions are tried over every window before the any-region context path,
  // so "(415) 555-0134 12" stays the US number rather than some region's eleven digits.
  const found = bestWindow(raw, groups, digitsBefore, regions);
  return found ?? (near && bestWindow(raw, groups, digitsBefore, regions, near));
}

function bestWindow(
  raw: string,
  groups: ReadonlyArray<readonly [number, number]>,
  digitsBefore: readonly number[],
  regions: readonly CountryCode[],
  near?: Nearby,
): [number, number] | undefined {
  const n = groups.length;
  /** Whether the run may be cut between group k-1 and group k. */
  const cuttable = (k: number): boolean => raw.slice(groups[k - 1][1], groups[k][0]).includes(' ');
  for (let size = n; size >= 1; size--) {
    for (let i = 0; i + size <= n; i++) {
      const j = i + size - 1;
      const digits = digitsBefore[j + 1] - digitsBefore[i];
      if (digits < (i > 0 ? 10 : 7) || digits > 15) {
        continue;
      }
      if ((i > 0 && !cuttable(i)) || (j < n - 1 && !cuttable(j + 1))) {
        continue;
      }
      const after = near && { after: raw.slice(groups[j][1]) + near.after };
      if (isWrittenPhone(raw.slice(groups[i][0], groups[j][1]), regions, after)) {
        return [groups[i][0], groups[j][1]];
      }
    }
  }
  return undefined;
}
