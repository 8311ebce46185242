/**
 * Folds the Unicode look-alikes that let PII slip past ASCII patterns into their ASCII
 * forms before detection, remembering where every folded character came from so spans
 * found in the folded text can be mapped back to the caller's text:
 * - any Unicode decimal digit (fullwidth, Arabic-Indic, Devanagari, …) becomes `0`–`9`, and
 *   so do digits written as other numbers (superscript ², circled ① and ❶, NFKC's);
 * - fullwidth ASCII (`＠`, `Ａ`, `－`) becomes ASCII;
 * - NBSP, thin, narrow and ideographic spaces become a space; hyphens (U+2010, U+2011
 *   non-breaking, figure dash, minus sign) become `-`, and so do en/em-dashes between the
 *   groups of a number (but not in a "1998–2002" range);
 * - every format character (Unicode Cf: zero-width characters, the soft hyphen, bidi marks
 *   and isolates, invisible operators, tags) is dropped: it is invisible, so a value split
 *   by one still reads whole; so is a combining mark (Mn, Me) on an ASCII character
 *   ("4̸1" reads as "41"), while marks on other scripts' letters stay part of their words;
 * - between two digits, a gap of tabs, a line break or several spaces becomes one space,
 *   since a number keeps being a number however it is spaced; in a run of digit groups
 *   with two or more separators, a spaced dash, dot or slash ("4111 - 1111 - 1111 - 1111")
 *   loses its spaces;
 * - a window's line break and speaker label ("\ncustomer: ") between two halves of a number
 *   or on either side of an address's `@` is a gap: the customer split one value over two
 *   messages;
 * - a dot look-alike between two ASCII letters or digits (middle dot, bullet, one-dot
 *   leader, ideographic full stop, …) becomes `.`: "4111·1111·…", "alice@example。com".
 * Pure ASCII text without such gaps is returned as is, so the common case costs one scan.
 */

import { decodeAt, ENCODING_START, GLUED, HELD } from './decode-escapes';
import {
  dropSeparatorSpaces,
  foldDotLikes,
  foldSlashRuns,
  isAsciiAlnum,
  isBlank,
  isDigit,
  isSeparator,
  speakerLabelEnd,
} from './number-separators';
import { foldSymbolSeparators, forgetPercentRun } from './symbol-separators';
import { COMBINING, foldCodePoint } from './unicode-fold';

/** The folded text and, per folded UTF-16 unit, the `[start, end)` it came from. */
export interface Normalized {
  text: string;
  starts: Int32Array;
  ends: Int32Array;
  /** Markup was kept as written because it may hold a value (see `HELD`): read it twice. */
  heldMarkup: boolean;
}

/**
 * Cheap test for text that needs folding: non-ASCII, an odd gap after a digit, a spaced
 * separator between digits, an `@` at either side of a window's turn break, or digit
 * groups joined by ASCII symbols ("415#555#0132", see symbol-separators.ts).
 */
const NEEDS_FOLDING =
  /[^\t-~]|\d[-/]?[\t\n\r\v\f]|\d \s|\d\s{1,4}[-./]|[-./]\s{1,4}\d|@\n|\n[\w -]{1,32}: {0,4}@|\d ?[!-,:-@[-`{-~]{1,4} ?\d{1,6} ?[!-,:-@[-`{-~]/;
/**
 * Encodings and markup `decodeAt` reads (escapes, references, tags, emphasis by a digit,
 * slashed digit groups, defanged dots) and a spaced "+" before digits; each starts with one of a few characters, tested
 * first so most positions fail at once.
 */
const NEEDS_DECODING =
  /(?=[%&\\<*_~`/[({+])(?:\+[ \t]{1,4}\d|%[\dA-Fa-f]{2}|&#?\w{1,16};|\\[uxnrt]|<[!/A-Za-z]|[*_~`]\d|(?<=\d)[*_~`]|(?<=\d)\/\d{1,8}\/\d|(?<=\w)[[({]\.[\])}]\w)/;
/**
 * En-dash, em-dash and horizontal bar: typography uses them for ranges ("973–1048",
 * "1998–2002"), which must not become phone numbers or SSNs. One between two numbers stays
 * a range; two or more in one digit run ("415–555–0134") are a number's separators.
 */
const RANGE_DASHES = new Set([0x2013, 0x2014, 0x2015]);

/**
 * Folds `input`; returns undefined when nothing would change. With `dropHeld`, markup that
 * may hold a value is decoded as markup (the second reading, see `HELD`).
 */
export function normalize(input: string, dropHeld = false): Normalized | undefined {
  if (!NEEDS_FOLDING.test(input) && !NEEDS_DECODING.test(input)) {
    return undefined;
  }
  // Pass 1: per code point folding, into typed arrays sized for the worst case (a code point
  // folds to at most two units, see unicode-fold.ts): no growth, no boxed numbers.
  const capacity = 2 * input.length;
  const chars = new Uint16Array(capacity);
  const from = new Int32Array(capacity);
  const to = new Int32Array(capacity);
  let n = 0;
  let glued = -1;
  let heldMarkup = false;
  for (let i = 0; i < input.length;) {
    const unit = input.charCodeAt(i);
    if (unit < 128 && ENCODING_START[unit] === 0 && glued < 0) {
      chars[n] = unit; // plain ASCII, the common case: kept as is
      from[n] = i;
      to[n++] = ++i;
      continue;
    }
    let decoded =
      unit < 128 && ENCODING_START[unit]
        ? decodeAt(input, i, n > 0 ? chars[n - 1] : 0, dropHeld)
        : undefined;
    if (decoded?.cp === HELD) {
      heldMarkup = true; // kept as written: its "<" is read as plain text
      decoded = undefined;
    }
    const cp = decoded ? decoded.cp : (input.codePointAt(i) ?? 0);
    const width = decoded ? decoded.length : cp > 0xffff ? 2 : 1;
    if (cp < 0) {
      // Markup that renders as nothing; emphasis marks ("~0a@…", "**415**") start what follows.
      glued = cp === GLUED && glued < 0 ? i : glued;
      i += width;
      continue;
    }
    const first = n;
    const folded = cp < 0x80 ? (decoded ? String.fromCharCode(cp) : null) : foldCodePoint(cp);
    if (folded === COMBINING && n > 0 && chars[n - 1] < 0x80) {
      // A mark on an ASCII character: dropped, but part of its base, so a span that ends
      // on the base covers the mark too.
      to[n - 1] = i + width;
    } else if (decoded && (folded === null || folded === COMBINING)) {
      const units = String.fromCodePoint(cp); // an encoded character that folds to itself
      for (let k = 0; k < units.length; k++) {
        chars[n] = units.charCodeAt(k);
        from[n] = i;
        to[n++] = i + width;
      }
    } else if (folded === null || folded === COMBINING) {
      for (let k = 0; k < width; k++) {
        chars[n] = input.charCodeAt(i + k);
        from[n] = i + k;
        to[n++] = i + k + 1;
      }
    } else {
      for (let k = 0; k < folded.length; k++) {
        chars[n] = folded.charCodeAt(k);
        from[n] = i;
        to[n++] = i + width;
      }
    }
    if (glued >= 0 && n > first) {
      from[first] = glued;
      glued = -1;
    }
    i += width;
  }
  forgetPercentRun(); // its cache must not keep this text alive once it is read
  foldSeparatorDashes(chars, n);
  foldDotLikes(chars, n);
  foldSlashRuns(chars, n);
  n = foldSymbolSeparators(chars, from, to, n);
  n = dropSeparatorSpaces(chars, from, to, n);
  // Pass 2: gaps between two digits. Each gap is visited once, so this stays linear.
  const out = new Uint16Array(n);
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  let m = 0;
  for (let i = 0; i < n;) {
    const c = chars[i];
    out[m] = c;
    starts[m] = from[i];
    ends[m++] = to[i];
    const turnEnd = c !== 10 && chars[i + 1] === 10 ? addressTurnGap(chars, n, i) : -1;
    if (turnEnd > 0) {
      i = turnEnd; // "alice.jones" / "@example.com" over two turns: one address
      continue;
    }
    const plusEnd =
      c === 43 && (i === 0 || !isAsciiAlnum(chars[i - 1])) ? spacedPlusEnd(chars, n, i) : -1;
    if (plusEnd > 0) {
      i = plusEnd; // "+ 44 20 …": the "+" of an international number, spaced from it
      continue;
    }
    const afterSeparator = isSeparator(c) && i > 0 && isDigit(chars[i - 1]);
    if ((isDigit(c) || afterSeparator) && i + 1 < n && isBlank(chars[i + 1])) {
      const gap = digitGap(chars, n, i + 1);
      if (gap && !afterSeparator) {
        out[m] = gap.sep;
        starts[m] = from[i + 1];
        ends[m++] = to[gap.end - 1];
        i = gap.end;
        continue;
      }
      if (gap?.crossesLine) {
        i = gap.end; // "536-22-" at a line's end: the number goes on on the next line
        continue;
      }
    }
    i++;
  }
  let text = '';
  for (let k = 0; k < m; k += 8192) {
    // spread in chunks: argument limit
    text += String.fromCharCode(...out.subarray(k, Math.min(m, k + 8192)));
  }
  return { text, starts: starts.slice(0, m), ends: ends.slice(0, m), heldMarkup };
}

/** Where the spaces or tabs (at most four) after a "+" at `at` end, when a digit follows; -1 otherwise. */
function spacedPlusEnd(chars: Uint16Array, length: number, at: number): number {
  let i = at + 1;
  while (i < length && i - at <= 4 && (chars[i] === 32 || chars[i] === 9)) {
    i++;
  }
  return i > at + 1 && i < length && isDigit(chars[i]) ? i : -1;
}

/** Characters of a digit run: digits, dashes of any kind, dots and spaces. */
const inRun = (c: number): boolean =>
  isDigit(c) || c === 45 || c === 46 || c === 32 || RANGE_DASHES.has(c);

/**
 * Folds range dashes to `-` inside digit runs that hold two or more separators. Each run
 * is scanned once to count, once to rewrite: linear.
 */
function foldSeparatorDashes(chars: Uint16Array, length: number): void {
  for (let i = 0; i < length; i++) {
    if (!RANGE_DASHES.has(chars[i])) {
      continue;
    }
    let start = i;
    while (start > 0 && inRun(chars[start - 1])) {
      start--;
    }
    let end = i;
    while (end < length && inRun(chars[end])) {
      end++;
    }
    // Separators between digit groups: each group start after the first.
    let separators = 0;
    for (let k = start + 1; k < end; k++) {
      separators += !isDigit(chars[k - 1]) && isDigit(chars[k]) ? 1 : 0;
    }
    separators -= isDigit(chars[start]) ? 0 : 1;
    for (let k = start; k < end; k++) {
      if (separators >= 2 && RANGE_DASHES.has(chars[k])) {
        chars[k] = 45;
      }
    }
    i = end;
  }
}

/**
 * Where the window's line break and speaker label after `at` end, when they split an e-mail
 * address at its `@` (a local-part character, then `@` on the next turn, or `@` then the
 * domain on the next turn); -1 otherwise.
 */
function addressTurnGap(chars: Uint16Array, length: number, at: number): number {
  const c = chars[at];
  const end = speakerLabelEnd(chars, length, at + 2);
  if (end < 0 || end >= length) {
    return -1;
  }
  const beforeAt = (isAsciiAlnum(c) || c === 46 || c === 95) && chars[end] === 64;
  const afterAt = c === 64 && isAsciiAlnum(chars[end]);
  return beforeAt || afterAt ? end : -1;
}

/**
 * A gap starting at `at` that joins two digits: blanks holding at most one line break, and
 * after that break a window's speaker label ({@link speakerLabelEnd}). Returns the
 * separator to write, where the gap ends and whether it crosses a line, or undefined when
 * the gap is a single space already or does not reach a digit. (" - " between numbers
 * stays: in prose it is punctuation, "rated 4.2 - 1150 Northwest 9th Avenue".)
 */
function digitGap(
  chars: Uint16Array,
  length: number,
  at: number,
): { sep: number; end: number; crossesLine: boolean } | undefined {
  let i = at;
  let breaks = 0;
  while (i < length && isBlank(chars[i])) {
    breaks += chars[i] === 10 ? 1 : 0;
    i++;
  }
  if (breaks === 1 && chars[i - 1] === 10 && i < length && !isDigit(chars[i])) {
    i = speakerLabelEnd(chars, length, i);
    if (i < 0) {
      return undefined;
    }
  }
  if (i >= length || !isDigit(chars[i]) || breaks > 1) {
    return undefined;
  }
  if (i - at === 1 && chars[at] === 32) {
    return undefined;
  }
  return { sep: 32, end: i, crossesLine: breaks === 1 };
}
