import { allMatches } from '../all-matches';
import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import { DAY_WORDS_MONTH, dayOfWords, MONTH_DAY_WORDS } from './date-words';
import type { Detection, DetectorOptions } from './detector';

// prettier-ignore
const MONTHS: Readonly<Record<string, number>> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5,
  jun: 6, june: 6, jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9,
  oct: 10, october: 10, nov: 11, november: 11, dec: 12, december: 12,
};
const MONTH =
  '(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\\.?';
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
/** Four-digit year first so `1985` is not read as `19` followed by junk. */
const YEAR = "(?:(\\d{4})|'?(\\d{2}))";

/** `03/14/1985`, `14.03.1985`, `3-14-85`: one separator used twice. */
const NUMERIC = linear(/(?<![\w/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\w]|[/.-]\d)/g);
/**
 * Year first: ISO `1985-03-14`, and `1985/03/14` or `1985.03.14` (one separator used twice);
 * a `T` after the day (a timestamp) is a word character and fails.
 */
const ISO = linear(/(?<![\w/.-])(\d{4})([/.-])(\d{1,2})\2(\d{1,2})(?![\w]|[/.-]\d)/g);
/**
 * Blanks between a written date's parts, or a window's line break and speaker label: the
 * customer went on with the date in their next message ("July 4,\ncustomer: 1985").
 */
const PART_GAP = '(?:[ \\t]{0,8}\\n[\\w -]{1,32}:[ \\t]{0,4}|\\s{1,8})';
/** `March 14th, 1985`, `Mar 14 85`, `March 14th` (the year is optional in this form). */
const MONTH_FIRST = linear(
  new RegExp(`\\b${MONTH}${PART_GAP}${DAY}(?:,?${PART_GAP}${YEAR})?(?![\\w])`, 'gi'),
);
/** `14 Mar 85`, `14th of March, 1985`, `14 March`. */
const DAY_FIRST = linear(
  new RegExp(
    `\\b${DAY}${PART_GAP}(?:of${PART_GAP})?${MONTH}(?:,?${PART_GAP}${YEAR})?(?![\\w])`,
    'gi',
  ),
);

/**
 * What counts as birth context: DOB / D.O.B., date of birth, birth date, birthdate,
 * birthday, b-day, bday, born, and "birth" on its own ("year of birth"). The look-behind
 * keeps the `DOB` inside a `[REDACTED:DOB]` placeholder from counting as context.
 */
const BIRTH_CONTEXT = linear(
  /(?<![:\w])(?:d\.?o\.?b\b|date\s{1,8}of\s{1,8}birth|birth\s{0,8}(?:date|day)s?\b|birth\b|b-?day\b|born\b)/gi,
);
/** A keyword licenses a date that starts at most this many characters after it
 * ("Date of birth? … March 14th, 1985" across a speaker turn)… */
const REACH_AFTER_KEYWORD = 48;
/** …or one that ends at most this many characters before it ("3/14/85 is my birthday"). */
const REACH_BEFORE_KEYWORD = 32;
/** An already-masked DOB still occupies its keyword, so a second pass does not hand the
 * keyword to the next date along (which would break idempotence the other way round). */
const MASKED_DOB = linear(/\[REDACTED:DOB\]/g);

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function validDay(month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= DAYS_IN_MONTH[month - 1];
}

/** Four-digit years must be plausible birth years; two-digit years are accepted as is. */
function validYear(year: string | undefined): boolean {
  if (year === undefined || year.length === 2) {
    return true;
  }
  const y = Number(year);
  return y >= 1900 && y <= new Date().getFullYear();
}

interface DateSpan {
  start: number;
  end: number;
  masked: boolean;
}

/** Every real calendar date in `text`, numeric or written, plus already-masked DOBs. */
function findDates(text: string): DateSpan[] {
  const dates: DateSpan[] = [];
  const add = (m: RegExpMatchArray, masked = false): void => {
    const start = m.index ?? 0;
    dates.push({ start, end: start + m[0].length, masked });
  };
  for (const m of allMatches(NUMERIC, text)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    if ((validDay(a, b) || validDay(b, a)) && validYear(m[4])) {
      add(m); // month-first or day-first, whichever reading is a real date
    }
  }
  for (const m of allMatches(ISO, text)) {
    if (validDay(Number(m[3]), Number(m[4])) && validYear(m[1])) {
      add(m);
    }
  }
  for (const m of allMatches(MONTH_FIRST, text)) {
    if (validDay(MONTHS[m[1].toLowerCase()], Number(m[2])) && validYear(m[3] ?? m[4])) {
      add(m);
    }
  }
  for (const m of allMatches(DAY_FIRST, text)) {
    if (validDay(MONTHS[m[2].toLowerCase()], Number(m[1])) && validYear(m[3] ?? m[4])) {
      add(m);
    }
  }
  // Said in words: the year, in digits or words, is not checked ("nineteen eighty five").
  for (const m of allMatches(MONTH_DAY_WORDS, text)) {
    if (validDay(MONTHS[m[1].toLowerCase()], dayOfWords(m[2]))) {
      add(m);
    }
  }
  for (const m of allMatches(DAY_WORDS_MONTH, text)) {
    if (validDay(MONTHS[m[2].toLowerCase()], dayOfWords(m[1]))) {
      add(m);
    }
  }
  for (const m of allMatches(MASKED_DOB, text)) {
    add(m, true);
  }
  return dates;
}

/**
 * Dates of birth. Each birth keyword licenses the single nearest date within reach (after
 * it, or before it), so "my birthday is March 14th; book me for March 20th" masks only the
 * first. A date is never masked without a keyword.
 */
export function detectDatesOfBirth(
  text: string,
  _options: DetectorOptions,
  out: Detection[],
): void {
  const keywords = [...allMatches(BIRTH_CONTEXT, text)];
  if (keywords.length === 0) {
    return; // nothing can qualify: skip the date scans
  }
  const dates = findDates(text).sort((a, b) => a.start - b.start);
  const licensed = new Set<DateSpan>();
  for (const k of keywords) {
    const kStart = k.index;
    const kEnd = kStart + k[0].length;
    // Dates are sorted: binary-search the first one after the keyword; the one before it
    // is the nearest date preceding the keyword.
    let lo = 0;
    let hi = dates.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (dates[mid].start < kEnd) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    const after = dates[lo];
    const before = dates[lo - 1];
    const gapAfter = after ? after.start - kEnd : Infinity;
    const gapBefore = before && before.end <= kStart ? kStart - before.end : Infinity;
    let best: DateSpan | undefined;
    if (gapAfter <= REACH_AFTER_KEYWORD && gapAfter <= gapBefore) {
      best = after;
    } else if (gapBefore <= REACH_BEFORE_KEYWORD) {
      best = before;
    }
    if (best && !best.masked) {
      licensed.add(best);
    }
  }
  for (const d of licensed) {
    out.push({
      type: 'DATE_OF_BIRTH',
      start: d.start,
      end: d.end,
      score: BASE_CONFIDENCE.DATE_OF_BIRTH,
    });
  }
}
