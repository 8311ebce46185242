/**
 * Any symbol between the digit groups of a number ("4111★1111★1111★1111", "415#555#0132",
 * "536=22=1234", U+FFFD, an emoji) folded to `-`, on the arrays `normalize` builds, so the
 * detectors read the number whatever was typed between its groups. Listing symbols would
 * always miss the next one, so a separator is any run of punctuation or symbol characters
 * (Unicode P*, S*, private use, unassigned), with a space on either side at most.
 */
import { isAsciiAlnum, isBlank, isDigit, isSeparator } from './number-separators';

/** Punctuation and symbols of every script, and what renders as an unknown glyph. */
const SYMBOL = /^[\p{P}\p{S}\p{Co}\p{Cn}]$/u;
/** Most UTF-16 units one separator spans: a few symbols, or an emoji and a space or two. */
const MAX_SEPARATOR_UNITS = 6;
/** Most digits one group holds: Amex's middle six. */
const MAX_GROUP_DIGITS = 6;
/** A phone number's fewest digits and a card's most: outside them nothing gets folded. */
const MIN_DIGITS = 7;
const MAX_DIGITS = 19;
/** Thousands marks ("1,234,567", "1'234'567") and time colons keep their meaning, see below. */
const COMMA = 44;
const APOSTROPHE = 39;
const COLON = 58;
const SEMICOLON = 59;

/**
 * A unit that may be (part of) a separator: ASCII punctuation other than the `-`, `.` and
 * `/` the detectors already read, any non-ASCII punctuation or symbol, and either half of
 * a surrogate pair (astral digits and letters were folded before; what is left is emoji).
 */
function isSymbolUnit(c: number): boolean {
  if (c < 128) {
    return c > 32 && c < 127 && !isAsciiAlnum(c) && c !== 45 && c !== 46 && c !== 47;
  }
  if (c >= 0xd800 && c <= 0xdfff) {
    return true;
  }
  return SYMBOL.test(String.fromCharCode(c));
}

/** A letter or digit of any script: a number glued to one is part of a word or id. */
const isWordUnit = (c: number): boolean =>
  isAsciiAlnum(c) || (c > 127 && c !== 0xa0 && !isSymbolUnit(c));

/** Where the separator starting at `at` ends (it must reach a digit), or -1. */
function separatorEnd(chars: Uint16Array, length: number, at: number): number {
  let i = at;
  let symbols = 0;
  let spaced = false;
  let listMark = false;
  while (i < length && i - at < MAX_SEPARATOR_UNITS && !isDigit(chars[i])) {
    const c = chars[i];
    if (isSymbolUnit(c)) {
      symbols += c >= 0xdc00 && c <= 0xdfff ? 0 : 1; // a surrogate pair is one symbol
      listMark ||= c === COMMA || c === SEMICOLON;
    } else if (c !== 32 || (i > at && chars[i - 1] === 32)) {
      return -1; // a letter, or two spaces in a row: prose, not a separator
    } else {
      spaced = true;
    }
    i++;
  }
  // Spaced, one symbol at most, and a list mark only with a space on each side: "(0), (2),
  // (3)" and "1, 2, 3" are lists; "415 ; 555 ; 2671" is one number written apart.
  const listSpacing = listMark && !(chars[at] === 32 && chars[i - 1] === 32);
  if (symbols === 0 || (spaced && (symbols > 1 || listSpacing))) {
    return -1;
  }
  return i < length && isDigit(chars[i]) ? i : -1;
}

/** The same separator units at `a` and `b` over `length` units. */
function sameUnits(chars: Uint16Array, a: number, b: number, length: number): boolean {
  for (let k = 0; k < length; k++) {
    if (chars[a + k] !== chars[b + k]) {
      return false;
    }
  }
  return true;
}

/**
 * Digit groups a separator reads as punctuation of one number: thousands ("1,234,567",
 * "1'234'567": three-digit groups after a first of one to three) and times or ratios
 * ("10:30:45": no group over two digits).
 */
function punctuationOfOneNumber(sep: number, groups: readonly number[]): boolean {
  if (sep === COMMA || sep === APOSTROPHE) {
    return groups[0] <= 3 && groups.every((g, k) => k === 0 || g === 3);
  }
  return sep === COLON && groups.every((g) => g <= 2);
}

/**
 * In each run of three or more digit groups joined by one repeated symbol separator, with
 * 7–19 digits and groups of at most six, not glued to a letter, writes `-` for the
 * separator's first symbol and drops its other symbols; spaces stay (a later pass drops
 * spaces around dashes). Returns the new length. Each run is read once to measure and once
 * to rewrite: linear.
 */
export function foldSymbolSeparators(
  chars: Uint16Array,
  from: Int32Array,
  to: Int32Array,
  length: number,
): number {
  let drop: Uint8Array | undefined;
  for (let i = 0; i < length; i++) {
    if (!isDigit(chars[i]) || (i > 0 && isWordUnit(chars[i - 1]))) {
      continue;
    }
    const groups: number[] = [];
    let sepAt = -1;
    let sepLength = 0;
    let oneSeparator = true; // every symbol separator the same, and no plain one between
    let bracketed = false; // "(415) 555-0134": a shape the phone detector reads as written
    let digits = 0;
    let end = i;
    for (;;) {
      const groupStart = end;
      while (end < length && isDigit(chars[end])) {
        end++;
      }
      groups.push(end - groupStart);
      digits += end - groupStart;
      if (groups.length > MAX_DIGITS) {
        break;
      }
      const next = separatorEnd(chars, length, end);
      if (next < 0) {
        // A plain space, dash or dot the detectors read anyway may join groups too, so a
        // number written "4111 1111 1111★1111" or "415-555★0132" is read whole.
        if (!plainJoin(chars, length, end)) {
          break;
        }
        oneSeparator = false;
        end += 1;
        continue;
      }
      if (sepAt >= 0 && (next - end !== sepLength || !sameUnits(chars, sepAt, end, sepLength))) {
        oneSeparator = false;
      }
      bracketed ||= hasBracket(chars, end, next);
      sepAt = sepAt < 0 ? end : sepAt;
      sepLength = sepLength || next - end;
      end = next;
    }
    const glued = end < length && isWordUnit(chars[end]);
    const firstSymbol = sepAt < 0 ? -1 : chars[sepAt] === 32 ? chars[sepAt + 1] : chars[sepAt];
    if (
      sepAt >= 0 &&
      groups.length >= 3 &&
      !glued &&
      digits >= MIN_DIGITS &&
      digits <= MAX_DIGITS &&
      groups.every((g) => g <= MAX_GROUP_DIGITS) &&
      // A number's own punctuation ("1,234,567", "10:30:45") stays; mixed with others too.
      !(oneSeparator
        ? punctuationOfOneNumber(firstSymbol, groups)
        : isNumberMark(firstSymbol) || bracketed)
    ) {
      drop ??= new Uint8Array(length);
      markSeparators(chars, drop, i, end);
    }
    i = end;
  }
  return drop ? compact(chars, from, to, length, drop) : length;
}

/** One space, dash or dot between two digits: a separator the detectors read themselves. */
function plainJoin(chars: Uint16Array, length: number, at: number): boolean {
  const c = chars[at];
  return (c === 32 || c === 45 || c === 46) && at + 1 < length && isDigit(chars[at + 1]);
}

/** Whether `[start, end)` holds a bracket. */
function hasBracket(chars: Uint16Array, start: number, end: number): boolean {
  for (let k = start; k < end; k++) {
    const c = chars[k];
    if (c === 40 || c === 41 || c === 91 || c === 93 || c === 123 || c === 125) {
      return true;
    }
  }
  return false;
}

/** Marks that punctuate one number (thousands, times, lists): never folded in a mixed run. */
const isNumberMark = (c: number): boolean =>
  c === COMMA || c === APOSTROPHE || c === COLON || c === SEMICOLON;

/** Writes `-` for the first symbol of every separator in `[start, end)`, marks the others. */
function markSeparators(chars: Uint16Array, drop: Uint8Array, start: number, end: number): void {
  let first = true;
  for (let k = start; k < end; k++) {
    if (isDigit(chars[k])) {
      first = true;
    } else if (chars[k] !== 32) {
      if (first) {
        chars[k] = 45;
        first = false;
      } else {
        drop[k] = 1;
      }
    }
  }
}

/** Drops the marked units; a kept unit's source span grows over the units dropped after it. */
function compact(
  chars: Uint16Array,
  from: Int32Array,
  to: Int32Array,
  length: number,
  drop: Uint8Array,
): number {
  let m = 0;
  for (let k = 0; k < length; k++) {
    if (drop[k]) {
      to[m - 1] = to[k];
      continue;
    }
    chars[m] = chars[k];
    from[m] = from[k];
    to[m++] = to[k];
  }
  return m;
}

const HEX_PAIR = /^[\dA-Fa-f]{2}$/;

/** The `%XX` at `at` decodes to what an encoder writes in a number: a digit, blank or separator. */
function encodesInNumber(text: string, at: number): boolean {
  const pair = text.slice(at + 1, at + 3);
  if (!HEX_PAIR.test(pair)) {
    return false;
  }
  const c = parseInt(pair, 16);
  return isDigit(c) || isBlank(c) || c === 43 || c === 44 || c === 58 || isSeparator(c);
}

/** Longest run of digits and `%` read to decide what its `%`s are. */
const MAX_PERCENT_RUN = 64;
/** The last run decided, so each `%` of it reuses the decision: one read per run. */
const lastRun = { text: '', start: 0, end: -1, joins: false };

/** Drops the cached run's text: a redacted (or forgotten) text must not stay reachable here. */
export function forgetPercentRun(): void {
  lastRun.text = '';
  lastRun.end = -1;
}

/**
 * Whether the `%` at `at`, right after a digit, joins digit groups rather than starting an
 * escape. Decided once for the run of digits and `%`s it starts: with two or more `%`, of
 * which one is not an escape of a digit, blank or separator, every `%` of it is a separator
 * ("415%555%2671": "%55" is "U"; "+44%20%7946%0958": "%79" is "y"). A lone `%XX`
 * ("82%57EST") and runs of encoded digits or spaces ("415%20555%200134") stay escapes.
 */
export function percentJoinsGroups(text: string, at: number): boolean {
  if (lastRun.text === text && at >= lastRun.start && at < lastRun.end) {
    return lastRun.joins;
  }
  let i = at;
  let percents = 0;
  let odd = false;
  while (i < text.length && i - at < MAX_PERCENT_RUN) {
    const c = text.charCodeAt(i);
    if (c === 37) {
      percents++;
      const escape = HEX_PAIR.test(text.slice(i + 1, i + 3));
      odd ||= !escape || !encodesInNumber(text, i);
      i += escape ? 3 : 1;
    } else if (isDigit(c)) {
      i++;
    } else {
      break;
    }
  }
  lastRun.text = text;
  lastRun.start = at;
  lastRun.end = i;
  lastRun.joins = percents >= 2 && odd;
  return lastRun.joins;
}
