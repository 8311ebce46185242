/**
 * Separators inside numbers that detectors would not read as such, folded in place on the
 * arrays `normalize` builds (see there): dot look-alikes, and blanks around a dash, dot or
 * slash between digit groups.
 */

/**
 * Dots in other clothes: middle dot, bullet, one-dot leader, hyphenation point, bullet and
 * dot operators, katakana middle dots, ideographic and small full stops (IDNA reads U+3002
 * and U+FF61 as a domain's dot).
 */
// prettier-ignore
const DOT_LIKE = new Set([0x00b7, 0x2022, 0x2024, 0x2027, 0x2219, 0x22c5, 0x30fb, 0xff65, 0x3002,
  0xff61, 0xfe52]);

export const isDigit = (c: number): boolean => c >= 48 && c <= 57;
export const isAsciiAlnum = (c: number): boolean =>
  isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
export const isBlank = (c: number): boolean => c === 32 || (c >= 9 && c <= 13);

/** A dot look-alike between two ASCII letters or digits becomes `.`. */
export function foldDotLikes(chars: Uint16Array, length: number): void {
  for (let i = 1; i + 1 < length; i++) {
    if (DOT_LIKE.has(chars[i]) && isAsciiAlnum(chars[i - 1]) && isAsciiAlnum(chars[i + 1])) {
      chars[i] = 46;
    }
  }
}

export const isSeparator = (c: number): boolean => c === 45 || c === 46 || c === 47;

/** Longest speaker label a window line starts with ("customer: ", "agent: "). */
const MAX_LABEL = 32;

/**
 * Where the speaker label starting at `at` ends (after its ": " and blanks), or -1.
 * Conversation windows join turns as "sender: text" lines, so a number the customer split
 * over two messages ("4111 1111" then "1111 1111") reads "4111 1111\ncustomer: 1111 1111"
 * in one excerpt; the label is part of the gap between its halves.
 */
export function speakerLabelEnd(chars: Uint16Array, length: number, at: number): number {
  let i = at;
  while (
    i < length &&
    i - at < MAX_LABEL &&
    (isAsciiAlnum(chars[i]) || chars[i] === 95 || chars[i] === 45 || chars[i] === 32)
  ) {
    i++;
  }
  if (i === at || i >= length || chars[i] !== 58) {
    return -1;
  }
  i++;
  const end = i;
  while (i < length && i - end < 4 && (chars[i] === 32 || chars[i] === 9)) {
    i++;
  }
  return i;
}

/** Blanks allowed on each side of a separator: a few spaces or tabs, one line break. */
const MAX_SEPARATOR_BLANKS = 4;

/** Where the blanks starting at `at` end (at most {@link MAX_SEPARATOR_BLANKS}, one break). */
function blanksEnd(chars: Uint16Array, length: number, at: number): number {
  let i = at;
  let breaks = 0;
  while (i < length && i - at < MAX_SEPARATOR_BLANKS && isBlank(chars[i])) {
    breaks += chars[i] === 10 ? 1 : 0;
    i++;
  }
  return breaks > 1 ? at : i;
}

/**
 * The end of a separator between digit groups starting at `at` (blanks, or a dash, dot or
 * slash with a few blanks on either side, followed by a digit), or -1. Sets `spaced.is`
 * when it is a visible separator with blanks.
 */
function separatorEnd(
  chars: Uint16Array,
  length: number,
  at: number,
  spaced: { is: boolean },
): number {
  let i = blanksEnd(chars, length, at);
  const before = i > at;
  if (i < length && isSeparator(chars[i])) {
    const after = blanksEnd(chars, length, i + 1);
    spaced.is = before || after > i + 1;
    i = after;
  } else {
    spaced.is = false;
    if (!before) {
      return -1;
    }
  }
  return i < length && isDigit(chars[i]) ? i : -1;
}

/**
 * In a run of digit groups with two or more dashes, dots or slashes that have blanks around
 * them, drops the blanks next to every such separator ("415 - 555 - 2671" reads
 * "415-555-2671"), compacting the arrays in place; returns the new length. A lone spaced
 * separator stays: "rated 4.2 - 1150 Northwest 9th Avenue" is prose before an address.
 * Each run is read twice: linear.
 */
export function dropSeparatorSpaces(
  chars: Uint16Array,
  from: Int32Array,
  to: Int32Array,
  length: number,
): number {
  const drop = new Uint8Array(length);
  const spaced = { is: false };
  let any = false;
  for (let i = 0; i < length;) {
    if (!isDigit(chars[i])) {
      i++;
      continue;
    }
    // First read: find the run's end and count its spaced separators.
    let spacedOnes = 0;
    let end = i;
    for (;;) {
      while (end < length && isDigit(chars[end])) {
        end++;
      }
      const next = separatorEnd(chars, length, end, spaced);
      if (next < 0) {
        break;
      }
      spacedOnes += spaced.is ? 1 : 0;
      end = next;
    }
    if (spacedOnes >= 2) {
      // Second read: mark the blanks on both sides of each visible separator.
      for (let k = i; k < end; k++) {
        if (!isSeparator(chars[k])) {
          continue;
        }
        for (let l = k - 1; l > i && isBlank(chars[l]); l--) {
          drop[l] = 1;
        }
        for (let r = k + 1; r < end && isBlank(chars[r]); r++) {
          drop[r] = 1;
        }
        any = true;
      }
    }
    i = Math.max(end, i + 1);
  }
  if (!any) {
    return length;
  }
  let m = 0;
  for (let k = 0; k < length; k++) {
    if (!drop[k]) {
      chars[m] = chars[k];
      from[m] = from[k];
      to[m++] = to[k];
    }
  }
  return m;
}

/** Most digits a slashed run holds to be read as one number: a 19-digit card. */
const MAX_SLASHED_DIGITS = 19;

/**
 * Slashes between the digit groups of a run with two or more of them and over eight digits
 * become dashes ("415/555/2671" is a phone number, "536/22/1234" an SSN), since phone
 * patterns read a slash as the end of a number. A date ("07/04/1985", "2024/07/04") has at
 * most eight digits and stays. Each run is read once to measure and once to rewrite.
 */
export function foldSlashRuns(chars: Uint16Array, length: number): void {
  for (let i = 1; i < length; i++) {
    if (chars[i] !== 47 || !isDigit(chars[i - 1])) {
      continue;
    }
    let start = i - 1;
    while (start > 0 && isDigit(chars[start - 1])) {
      start--;
    }
    let end = i;
    let slashes = 0;
    while (end < length && chars[end] === 47 && end + 1 < length && isDigit(chars[end + 1])) {
      slashes++;
      end++;
      while (end < length && isDigit(chars[end])) {
        end++;
      }
    }
    const digits = end - start - slashes;
    if (slashes >= 2 && digits > 8 && digits <= MAX_SLASHED_DIGITS) {
      for (let k = start; k < end; k++) {
        chars[k] = chars[k] === 47 ? 45 : chars[k];
      }
    }
    i = Math.max(i, end);
  }
}
