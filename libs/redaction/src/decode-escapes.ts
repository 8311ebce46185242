/**
 * Encodings and markup that hide a value from a reader of the raw text but not from whoever
 * sees it rendered or decoded: `normalize` reads each as the character it stands for, or as
 * nothing, before folding. Every form is short and bounded (at most {@link MAX_TAG}
 * characters), so decoding reads each character a bounded number of times: linear.
 * - URL escapes, UTF-8 sequences included: `%40`, `%20`, `%EF%BC%94`;
 * - HTML character references: `&#64;`, `&#x34;`, and the named ones people use to hide a
 *   separator (`&commat;`, `&period;`, `&nbsp;`, `&shy;`, …);
 * - JSON and JavaScript escapes: `\u0040`, a surrogate pair `\ud835\udfd2`, `\x40`, and
 *   `\n`, `\t`, `\r` written out;
 * - HTML tags of known elements: an inline one (`<b>`, `<span class="x">`) is dropped, since
 *   a browser renders `4<b>1</b>5` as "415"; a block one (`<br>`, `<p>`, `<td>`) is a space;
 *   a comment (`<!-- -->`) is dropped;
 * - Markdown emphasis and code marks (`*`, `_`, `~`, a backtick; up to three) next to a
 *   digit: `**415** 555`, `_415_-_555_`, `4111*1111*…` read as the digits they wrap.
 * Unknown tags (`<at>`, `<dot>`) and named references stay as written.
 */

import { percentJoinsGroups } from './symbol-separators';

/**
 * What one encoded form stands for: a code point, {@link DROPPED}, or {@link GLUED} (dropped,
 * but part of what follows: a mark that opens a value is masked with it).
 */
export interface Decoded {
  cp: number;
  length: number;
}

export const DROPPED = -1;
export const GLUED = -2;
/**
 * Markup kept as written because it may hold a value (`<span title="alice at …">`, a
 * comment with words): the first reading leaves it for the detectors, a second reading
 * (`dropHeld`) decodes it like any other tag, so a value split by it is read whole too.
 */
export const HELD = -3;

/** ASCII units that may start an encoded form: the only ones {@link decodeAt} reads at. */
export const ENCODING_START = new Uint8Array(128);
for (const c of '%&\\<*_~`[({') {
  ENCODING_START[c.charCodeAt(0)] = 1;
}

/** Longest tag (with its attributes) or comment read as markup. */
const MAX_TAG = 160;
const SPACE = 32;

// prettier-ignore
const INLINE_TAGS: ReadonlySet<string> = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'big', 'cite',
  'code', 'data', 'del', 'dfn', 'em', 'font', 'i', 'ins', 'kbd', 'mark', 'q', 's', 'samp',
  'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'tt', 'u', 'var', 'wbr']);
// prettier-ignore
const BLOCK_TAGS: ReadonlySet<string> = new Set(['address', 'article', 'aside', 'blockquote',
  'br', 'dd', 'div', 'dl', 'dt', 'footer', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr',
  'img', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section', 'table', 'tbody', 'td', 'tfoot', 'th',
  'thead', 'tr', 'ul']);
/** Named references that stand for a character a value is written with (or an invisible one). */
// prettier-ignore
const NAMED: ReadonlyMap<string, number> = new Map([
  ['commat', 0x40], ['period', 0x2e], ['nbsp', 0xa0], ['ensp', 0x2002], ['emsp', 0x2003],
  ['thinsp', 0x2009], ['numsp', 0x2007], ['puncsp', 0x2008], ['hairsp', 0x200a],
  ['plus', 0x2b], ['hyphen', 0x2010], ['dash', 0x2010], ['minus', 0x2212], ['ndash', 0x2013],
  ['mdash', 0x2014], ['lpar', 0x28], ['rpar', 0x29], ['sol', 0x2f], ['lowbar', 0x5f],
  ['num', 0x23], ['colon', 0x3a], ['comma', 0x2c], ['middot', 0xb7], ['centerdot', 0xb7],
  ['bull', 0x2022], ['shy', 0xad], ['zwsp', 0x200b], ['ZeroWidthSpace', 0x200b],
  ['zwj', 0x200d], ['zwnj', 0x200c], ['lrm', 0x200e], ['rlm', 0x200f], ['NoBreak', 0x2060],
  ['NewLine', 0x0a], ['Tab', 0x09], ['amp', 0x26],
]);
const ESCAPED_BLANK: Readonly<Record<string, number>> = { n: 0x0a, r: 0x0d, t: 0x09 };

/** The value of the hex digit `c` (a UTF-16 unit), or -1. */
function hex(c: number): number {
  if (c >= 48 && c <= 57) {
    return c - 48;
  }
  const lower = c | 0x20;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** The value of `count` hex digits at `at`, or -1. */
function hexAt(text: string, at: number, count: number): number {
  if (at + count > text.length) {
    return -1;
  }
  let value = 0;
  for (let k = 0; k < count; k++) {
    const h = hex(text.charCodeAt(at + k));
    if (h < 0) {
      return -1;
    }
    value = value * 16 + h;
  }
  return value;
}

const isScalar = (cp: number): boolean => cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff);

/** ASCII that an e-mail local part may hold (RFC 5322 atext, the dot) or its `@`. */
const ADDRESS_TEXT = /[\w.!#$%&'*+/=?^`{|}~@-]/;

const LOCAL_MAX = 64;

/**
 * Whether the local-part characters from `at` reach a written `@` (within a local part's
 * 64): `%`, `&`, `#` and `;` are legal there, so "a%20b@example.com" or "x&#5;@…" is an
 * address as written, and the written detector masks it whole.
 */
function inWrittenLocalPart(text: string, at: number): boolean {
  let i = at;
  while (i < text.length && i - at < LOCAL_MAX && ADDRESS_TEXT.test(text[i]) && text[i] !== '@') {
    i++;
  }
  return text.charCodeAt(i) === 64;
}

/**
 * `%XX`, or a UTF-8 sequence of them, at `at`. No encoder writes "%%XX", and after a digit
 * `%` may join digit groups instead ("415%555%2671", "+44%20%7946%0958"; see
 * {@link percentJoinsGroups}): then it stays as written for symbol-separators.ts to read.
 */
function urlEscape(text: string, at: number, previous: number): Decoded | undefined {
  if (inWrittenLocalPart(text, at + 1)) {
    return undefined;
  }
  if (previous === 37 || (previous >= 48 && previous <= 57 && percentJoinsGroups(text, at))) {
    return undefined;
  }
  const lead = hexAt(text, at + 1, 2);
  const control = lead < 0x20 && lead !== 0x09 && lead !== 0x0a && lead !== 0x0d;
  if (control || lead === 0x7f || (lead >= 0x80 && lead < 0xc2) || lead > 0xf4) {
    return undefined;
  }
  if (lead < 0x80) {
    return { cp: lead, length: 3 };
  }
  const more = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : 1;
  let cp = lead & (0x3f >> more);
  for (let k = 1; k <= more; k++) {
    const i = at + 3 * k;
    const byte = text.charCodeAt(i) === 37 ? hexAt(text, i + 1, 2) : -1;
    if (byte < 0x80 || byte > 0xbf) {
      return undefined;
    }
    cp = (cp << 6) | (byte & 0x3f);
  }
  return isScalar(cp) && cp >= 0x80 ? { cp, length: 3 * (more + 1) } : undefined;
}

/** `&#NN;`, `&#xHH;` or a known `&name;` at `at`. */
function htmlReference(text: string, at: number): Decoded | undefined {
  if (inWrittenLocalPart(text, at + 1)) {
    return undefined;
  }
  let i = at + 1;
  if (text.charCodeAt(i) === 35) {
    const isHex = (text.charCodeAt(i + 1) | 0x20) === 120;
    i += isHex ? 2 : 1;
    const first = i;
    let cp = 0;
    while (i - first < 8 && i < text.length) {
      const c = text.charCodeAt(i);
      const digit = isHex ? hex(c) : c >= 48 && c <= 57 ? c - 48 : -1;
      if (digit < 0) {
        break;
      }
      cp = cp * (isHex ? 16 : 10) + digit;
      i++;
    }
    const ok = i > first && text.charCodeAt(i) === 59 && isScalar(cp);
    return ok ? { cp, length: i + 1 - at } : undefined;
  }
  while (i - at <= 16 && i < text.length && /[A-Za-z]/.test(text[i])) {
    i++;
  }
  const cp = text.charCodeAt(i) === 59 ? NAMED.get(text.slice(at + 1, i)) : undefined;
  return cp === undefined ? undefined : { cp, length: i + 1 - at };
}

/** `\uXXXX` (a surrogate pair joined), `\xHH`, or an escaped blank at `at`. */
function backslashEscape(text: string, at: number): Decoded | undefined {
  const kind = text[at + 1];
  if (kind === 'u') {
    const cp = hexAt(text, at + 2, 4);
    if (cp >= 0xd800 && cp <= 0xdbff && text.startsWith('\\u', at + 6)) {
      const low = hexAt(text, at + 8, 4);
      if (low >= 0xdc00 && low <= 0xdfff) {
        return { cp: 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00), length: 12 };
      }
    }
    return isScalar(cp) ? { cp, length: 6 } : undefined;
  }
  if (kind === 'x') {
    const cp = hexAt(text, at + 2, 2);
    return cp >= 0x20 && cp < 0x7f ? { cp, length: 4 } : undefined;
  }
  const blank = kind === undefined ? undefined : ESCAPED_BLANK[kind];
  return blank === undefined ? undefined : { cp: blank, length: 2 };
}

/** Characters of an attribute that may be (part of) a value: digits, `@`, `%`, `&`, `\`. */
const MAY_HOLD_VALUE = new Uint8Array(128);
for (const c of '0123456789@%&\\') {
  MAY_HOLD_VALUE[c.charCodeAt(0)] = 1;
}

/** A tag of a known element, or a comment, at `at` (a `<`). */
function markup(text: string, at: number, dropHeld: boolean): Decoded | undefined {
  if (text.startsWith('<!--', at)) {
    // Searched in a bounded slice: an unclosed "<!--" must not read to the end of the text.
    // Only an empty comment is dropped: one with words or digits in it stays readable.
    const body = text.slice(at + 4, at + MAX_TAG);
    const close = body.indexOf('-->');
    if (close < 0) {
      return undefined;
    }
    const empty = !/[\p{L}\p{N}]/u.test(body.slice(0, close));
    return { cp: empty || dropHeld ? DROPPED : HELD, length: close + 7 };
  }
  let i = at + 1 + (text.charCodeAt(at + 1) === 47 ? 1 : 0);
  const nameStart = i;
  while (i - nameStart < 10 && i < text.length && /[A-Za-z0-9]/.test(text[i])) {
    i++;
  }
  const name = text.slice(nameStart, i).toLowerCase();
  const inline = INLINE_TAGS.has(name);
  if (!inline && !BLOCK_TAGS.has(name)) {
    return undefined;
  }
  const c = text[i];
  if (c !== '>' && c !== '/' && c !== ' ' && c !== '\t' && c !== '\n') {
    return undefined;
  }
  // Attributes: up to the tag's end, never across another "<" (each "<" is tried once).
  // One that may hold a value (a digit, "@", an escape, or words in a quoted value:
  // href="mailto:…", title="alice at example dot com") keeps the tag as written, so the
  // detectors read it: decoding it away would hide the value.
  let holdsValue = false;
  let quote = 0;
  while (i - at < MAX_TAG && i < text.length && text[i] !== '>' && text[i] !== '<') {
    const c = text.charCodeAt(i);
    quote = c === 34 || c === 39 ? (quote === c ? 0 : quote || c) : quote;
    holdsValue ||= MAY_HOLD_VALUE[c] === 1 || (quote !== 0 && c <= 32);
    i++;
  }
  if (text[i] !== '>') {
    return undefined;
  }
  const cp = inline ? DROPPED : SPACE;
  return { cp: holdsValue && !dropHeld ? HELD : cp, length: i + 1 - at };
}

const CLOSING: Readonly<Record<string, string>> = { '[': ']', '(': ')', '{': '}' };

/**
 * A defanged dot between two letters or digits: "192[.]168[.]1[.]20", "example(.)com". It
 * reads as the dot it stands for, to the reader it is written for.
 */
function defangedDot(text: string, at: number, previous: number): Decoded | undefined {
  const ok =
    text[at + 1] === '.' &&
    text[at + 2] === CLOSING[text[at]] &&
    isAsciiAlnum(previous) &&
    at + 3 < text.length &&
    isAsciiAlnum(text.charCodeAt(at + 3));
  return ok ? { cp: 46, length: 3 } : undefined;
}

const isAsciiAlnum = (c: number): boolean =>
  isAsciiDigit(c) || ((c | 0x20) >= 97 && (c | 0x20) <= 122);
const isEmphasis = (c: number): boolean => c === 42 || c === 95 || c === 126 || c === 96;
const isAsciiDigit = (c: number): boolean => c >= 48 && c <= 57;

/** A run of one to three emphasis marks at `at` with a digit on either side. */
function emphasis(text: string, at: number, previous: number): Decoded | undefined {
  let end = at;
  while (end < text.length && end - at < 4 && isEmphasis(text.charCodeAt(end))) {
    end++;
  }
  if (end - at > 3 || (at > 0 && isEmphasis(text.charCodeAt(at - 1)))) {
    return undefined; // a longer run is a rule or a fence, not emphasis
  }
  // A digit next, or a "+" and a digit: "**+44** 20 …".
  const next = text.charCodeAt(end) === 43 ? end + 1 : end;
  const digitNext = next < text.length && isAsciiDigit(text.charCodeAt(next));
  return isAsciiDigit(previous) || digitNext ? { cp: GLUED, length: end - at } : undefined;
}

/**
 * The encoded form starting at `at`, if any: what it stands for (`cp`, -1 when dropped)
 * and how many UTF-16 units it spans. `previous` is the last folded unit before it;
 * `dropHeld` reads markup that may hold a value as markup too (see {@link HELD}).
 */
export function decodeAt(
  text: string,
  at: number,
  previous: number,
  dropHeld = false,
): Decoded | undefined {
  switch (text.charCodeAt(at)) {
    case 37: // %
      return urlEscape(text, at, previous);
    case 38: // &
      return htmlReference(text, at);
    case 92: // backslash
      return backslashEscape(text, at);
    case 60: // <
      return markup(text, at, dropHeld);
    case 91: // [
    case 40: // (
    case 123: // {
      return defangedDot(text, at, previous);
    case 42: // *
    case 95: // _
    case 126: // ~
    case 96: // backtick
      return emphasis(text, at, previous);
    default:
      return undefined;
  }
}
