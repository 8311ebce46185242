/**
 * What one code point folds to before detection (see `normalize.ts`): an ASCII stand-in,
 * nothing (an invisible character), or itself. Decided once per distinct code point and
 * cached, since the Unicode property tests cost more than the rest of the fold.
 */

/** Returned by {@link foldCodePoint} for a combining mark (Mn, Me): dropped after ASCII. */
export const COMBINING = Symbol('combining');
/** A code point's fold: replacement text (`''` drops it), `null` keeps it, or a mark. */
export type Fold = string | null | typeof COMBINING;

const DECIMAL_DIGIT = /^\p{Nd}$/u;
/** Invisible format characters: bidi controls, joiners, invisible operators, tags, … */
const FORMAT = /^\p{Cf}$/u;
const MARK = /^[\p{Mn}\p{Me}]$/u;
const NFKC_DIGITS = /^\d{1,2}$/;
// prettier-ignore
const SPACES = new Set([0x00a0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006,
  0x2007, 0x2008, 0x2009, 0x200a, 0x202f, 0x205f, 0x3000]);
/** Hyphens that only ever join: always folded. */
const DASHES = new Set([0x2010, 0x2011, 0x2012, 0x2212, 0xfe58, 0xfe63]);
/**
 * Dingbat and double-circled digits, which NFKC leaves alone: [first code point, last,
 * value of the first].
 */
const DINGBAT_DIGITS: ReadonlyArray<readonly [number, number, number]> = [
  [0x2776, 0x277f, 1], // ❶–❿
  [0x2780, 0x2789, 1], // ➀–➉
  [0x278a, 0x2793, 1], // ➊–➓
  [0x24eb, 0x24f4, 11], // ⓫–⓴
  [0x24f5, 0x24fe, 1], // ⓵–⓾
  [0x24ff, 0x24ff, 0], // ⓿
  [0x1f10b, 0x1f10c, 0], // 🄋 🄌
];
const CACHE = new Map<number, Fold>();

/**
 * The value of a non-ASCII decimal digit, or -1. Unicode assigns every `Nd` digit in
 * contiguous ascending runs that start at a zero, so the value is the distance from the
 * start of the run, modulo 10 (the mathematical digits hold five runs back to back).
 */
function digitValue(cp: number): number {
  if (!DECIMAL_DIGIT.test(String.fromCodePoint(cp))) {
    return -1;
  }
  let first = cp;
  while (first - cp < 60 && DECIMAL_DIGIT.test(String.fromCodePoint(first - 1))) {
    first--;
  }
  return (cp - first) % 10;
}

/**
 * Digits written as other numbers: NFKC's digits (superscript ², subscript ₃, circled ①,
 * ⑫) and the dingbat circles it does not map (❶, ➀). Fractions, Roman numerals and
 * parenthesised forms ("⑴" is "(1)") are not digits and stay.
 */
function numberDigits(cp: number): string | undefined {
  for (const [first, last, value] of DINGBAT_DIGITS) {
    if (cp >= first && cp <= last) {
      return String(value + cp - first);
    }
  }
  const nfkc = String.fromCodePoint(cp).normalize('NFKC');
  return NFKC_DIGITS.test(nfkc) ? nfkc : undefined;
}

function classify(cp: number): Fold {
  if (SPACES.has(cp)) {
    return ' ';
  }
  if (DASHES.has(cp)) {
    return '-';
  }
  if (cp >= 0xff01 && cp <= 0xff5e) {
    return String.fromCharCode(cp - 0xfee0); // fullwidth ASCII
  }
  if (cp === 0xfe6b) {
    return '@';
  }
  const char = String.fromCodePoint(cp);
  // The soft hyphen is Cf too: invisible, so a number split by one still reads whole.
  if (FORMAT.test(char)) {
    return '';
  }
  if (MARK.test(char)) {
    return COMBINING;
  }
  const value = digitValue(cp);
  if (value >= 0) {
    return String.fromCharCode(48 + value);
  }
  return numberDigits(cp) ?? null;
}

/** The fold of one non-ASCII code point. */
export function foldCodePoint(cp: number): Fold {
  let fold = CACHE.get(cp);
  if (fold === undefined) {
    fold = classify(cp);
    CACHE.set(cp, fold);
  }
  return fold;
}
