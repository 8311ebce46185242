/**
 * The time a question names ("on 7 May 2023", "in May 2023", "in 2023", "on the 8th of May",
 * "last week", "last Saturday"), as a half-open UTC range: what the date-filtered retrieval leg searches. A
 * small linear parser, not a date library: it reads only the forms a caller asks about
 * history in, and says nothing rather than guess.
 *
 * - Dates with a year are absolute.
 * - A day or month without a year, and relative words (today, yesterday, last week …), need a
 *   reference time (the call's or the request's): without one they name no range.
 * - Only the first {@link MAX_SCANNED_CHARS} characters are read, and every quantifier is
 *   bounded, so the cost is linear in that prefix whatever it holds.
 */

/** `[from, to)`, UTC. */
export interface DateRange {
  from: Date;
  to: Date;
}

/** Characters of a question read for a date (a question names its date early). */
export const MAX_SCANNED_CHARS = 2000;

const DAY_MS = 86_400_000;
const MIN_YEAR = 1900;
const MAX_YEAR = 2199;

// prettier-ignore
const MONTH_NUMBERS: Readonly<Record<string, number>> = {
  january: 0, february: 1, march: 2, april: 3, may: 4, june: 5, july: 6, august: 7,
  september: 8, october: 9, november: 10, december: 11,
  jan: 0, feb: 1, mar: 2, apr: 3, jun: 5, jul: 6, aug: 7, sep: 8, sept: 8, oct: 9, nov: 10,
  dec: 11,
};
const FULL_MONTH =
  '(january|february|march|april|may|june|july|august|september|october|november|december)';
/** Full names or abbreviations: only next to a day or a year, where "mar" or "may" is a month. */
const MONTH = `(${Object.keys(MONTH_NUMBERS).join('|')})\\.?`;
const DAY = '(\\d{1,2})(?:st|nd|rd|th)?';
const YEAR = '(\\d{4})';
const SP = '\\s{1,4}';
/** Between a day and its year: a comma, spaces or both ("December 1,2023" is written too). */
const COMMA = `(?:,\\s{0,4}|${SP})`;

/** Patterns in order of precedence: the most specific that matches wins. */
const ISO_DAY = /\b(\d{4})-(\d{2})-(\d{2})\b/;
const MONTH_DAY_YEAR = new RegExp(`\\b${MONTH}${SP}${DAY}${COMMA}${YEAR}\\b`, 'i');
const DAY_MONTH_YEAR = new RegExp(`\\b${DAY}${SP}(?:of${SP})?${MONTH}${COMMA}${YEAR}\\b`, 'i');
const MONTH_YEAR = new RegExp(`\\b${MONTH}${COMMA}(?:of${SP})?${YEAR}\\b`, 'i');
const DAY_OF_MONTH = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?${SP}of${SP}${MONTH}(?![\\w])`, 'i');
/** "May 8th", "on May 8": full names only, so "you may 2" is no date. */
const MONTH_ORDINAL = new RegExp(`\\b${FULL_MONTH}${SP}(\\d{1,2})(?:st|nd|rd|th)?(?![\\w:])`, 'i');
const BARE_MONTH = new RegExp(`\\b(?:in|during|of|since|early|late|mid)${SP}${FULL_MONTH}\\b`, 'i');
const BARE_YEAR = /\b(?:in|during|of|since)\s{1,4}(\d{4})\b(?![-/])/i;
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const RELATIVE = new RegExp(
  '\\b(today|tonight|yesterday|(?:last|this|past)\\s{1,4}(?:week|month|year)|' +
    '(\\d{1,2}|a|one|two|three)\\s{1,4}(days?|weeks?)\\s{1,4}ago|' +
    `last\\s{1,4}(${WEEKDAYS.join('|')}))\\b`,
  'i',
);

const COUNTS: Readonly<Record<string, number>> = { a: 1, one: 1, two: 2, three: 3 };

const utc = (year: number, month: number, day = 1) => new Date(Date.UTC(year, month, day));
const validYear = (year: number) => year >= MIN_YEAR && year <= MAX_YEAR;

/** A calendar day, or undefined when it does not exist (31 April) or the year is out of range. */
function dayRange(year: number, month: number, day: number): DateRange | undefined {
  if (!validYear(year) || month < 0 || month > 11 || day < 1) {
    return undefined;
  }
  const from = utc(year, month, day);
  if (from.getUTCMonth() !== month) {
    return undefined;
  }
  return { from, to: new Date(from.getTime() + DAY_MS) };
}

const monthRange = (year: number, month: number): DateRange | undefined =>
  validYear(year) ? { from: utc(year, month), to: utc(year, month + 1) } : undefined;

/** The latest range `make(year)` gives that starts on or before `reference`. */
function latestBefore(
  reference: Date,
  make: (year: number) => DateRange | undefined,
): DateRange | undefined {
  const year = reference.getUTCFullYear();
  const now = make(year);
  return now && now.from.getTime() <= reference.getTime() ? now : make(year - 1);
}

/**
 * The range the question names, or undefined when it names none (or names one this parser
 * does not read with confidence).
 * @param reference the time the question is asked at, for yearless and relative dates.
 */
export function questionRange(question: string, reference?: Date): DateRange | undefined {
  const q = question.slice(0, MAX_SCANNED_CHARS);
  const ref = reference && Number.isFinite(reference.getTime()) ? reference : undefined;
  const month = (name: string) => MONTH_NUMBERS[name.toLowerCase()];
  // Without a day and a year beside it, a lower-case "may" is the verb ("you may 2 of them").
  const verb = (name: string) => name === 'may';
  let m = ISO_DAY.exec(q);
  if (m) {
    return dayRange(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  }
  if ((m = MONTH_DAY_YEAR.exec(q))) {
    return dayRange(Number(m[3]), month(m[1]), Number(m[2]));
  }
  if ((m = DAY_MONTH_YEAR.exec(q))) {
    return dayRange(Number(m[3]), month(m[2]), Number(m[1]));
  }
  if ((m = MONTH_YEAR.exec(q))) {
    return monthRange(Number(m[2]), month(m[1]));
  }
  if ((m = BARE_YEAR.exec(q))) {
    const year = Number(m[1]);
    return validYear(year) ? { from: utc(year, 0), to: utc(year + 1, 0) } : undefined;
  }
  if (!ref) {
    return undefined;
  }
  const dm = DAY_OF_MONTH.exec(q) ?? MONTH_ORDINAL.exec(q);
  if (dm) {
    const dayFirst = /^\d/.test(dm[1]); // "8th of may" is a date whatever its case
    const [day, name] = dayFirst ? [Number(dm[1]), dm[2]] : [Number(dm[2]), dm[1]];
    return !dayFirst && verb(name)
      ? undefined
      : latestBefore(ref, (year) => dayRange(year, month(name), day));
  }
  if ((m = BARE_MONTH.exec(q)) && !verb(m[1])) {
    const named = month(m[1]);
    return latestBefore(ref, (year) => monthRange(year, named));
  }
  if ((m = RELATIVE.exec(q))) {
    return relativeRange(m, ref);
  }
  return undefined;
}

/** today / yesterday / last or this week, month, year / N days or weeks ago / last Monday… at `ref`. */
function relativeRange(m: RegExpExecArray, ref: Date): DateRange | undefined {
  const today = utc(ref.getUTCFullYear(), ref.getUTCMonth(), ref.getUTCDate());
  const days = (from: Date, n: number) => new Date(from.getTime() + n * DAY_MS);
  const phrase = m[1].toLowerCase().replace(/\s+/g, ' ');
  if (phrase === 'today' || phrase === 'tonight') {
    return { from: today, to: days(today, 1) };
  }
  if (phrase === 'yesterday') {
    return { from: days(today, -1), to: today };
  }
  if (m[4] !== undefined) {
    // "last Saturday": the latest Saturday before today (a week back when today is one).
    const back = (today.getUTCDay() - WEEKDAYS.indexOf(m[4].toLowerCase()) + 7) % 7 || 7;
    return { from: days(today, -back), to: days(today, 1 - back) };
  }
  if (m[2] !== undefined) {
    const n = COUNTS[m[2].toLowerCase()] ?? Number(m[2]);
    const back = m[3].toLowerCase().startsWith('week') ? 7 * n : n;
    // "3 days ago" is that day; "2 weeks ago" that week (Monday to Monday).
    if (back === n) {
      return { from: days(today, -n), to: days(today, 1 - n) };
    }
    const monday = days(today, -((today.getUTCDay() + 6) % 7));
    return { from: days(monday, -back), to: days(monday, 7 - back) };
  }
  const [which, unit] = phrase.split(' ');
  const back = which === 'this' ? 0 : 1;
  if (unit === 'week') {
    if (which === 'past') {
      return { from: days(today, -7), to: days(today, 1) };
    }
    const monday = days(today, -((today.getUTCDay() + 6) % 7));
    return { from: days(monday, -7 * back), to: days(monday, 7 - 7 * back) };
  }
  if (unit === 'month') {
    if (which === 'past') {
      return { from: days(today, -30), to: days(today, 1) };
    }
    const [y, mo] = [ref.getUTCFullYear(), ref.getUTCMonth() - back];
    return { from: utc(y, mo), to: utc(y, mo + 1) };
  }
  if (which === 'past') {
    return { from: days(today, -365), to: days(today, 1) };
  }
  const year = ref.getUTCFullYear() - back;
  return { from: utc(year, 0), to: utc(year + 1, 0) };
}
