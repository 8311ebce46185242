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
/** Hyphens that only ever join: always folded (U+2043 hyphen bullet, U+02D7 modifier minus). */
const DASHES = new Set([0x2010, 0x2011, 0x2012, 0x2043, 0x02d7, 0x2212, 0x2796, 0xfe58, 0xfe63]);
/**
 * Cyrillic and Greek letters drawn exactly like a Latin one: "ЅЅN", "ѕѕn" or "emаil" read
 * as the keyword they imitate, so a contextual detector (SSN, phone and e-mail words) is not
 * dodged by one swapped letter. Only same-glyph pairs: a Russian or Greek word folds to
 * nonsense that matches no keyword, and addresses with such letters stay addresses.
 */
// prettier-ignore
const CONFUSABLES = new Map<number, string>([
  // Cyrillic lower: а е о р с у х ѕ і ј ԁ һ ԛ ԝ ӏ
  [0x0430, 'a'], [0x0435, 'e'], [0x043e, 'o'], [0x0440, 'p'], [0x0441, 'c'], [0x0443, 'y'],
  [0x0445, 'x'], [0x0455, 's'], [0x0456, 'i'], [0x0458, 'j'], [0x0501, 'd'], [0x04bb, 'h'],
  [0x051b, 'q'], [0x051d, 'w'], [0x04cf, 'l'],
  // Cyrillic upper: А В Е К М Н О Р С Т Х Ѕ І Ј
  [0x0410, 'A'], [0x0412, 'B'], [0x0415, 'E'], [0x041a, 'K'], [0x041c, 'M'], [0x041d, 'H'],
  [0x041e, 'O'], [0x0420, 'P'], [0x0421, 'C'], [0x0422, 'T'], [0x0425, 'X'], [0x0405, 'S'],
  [0x0406, 'I'], [0x0408, 'J'],
  // Greek: ο ν (lower); Α Β Ε Ζ Η Ι Κ Μ Ν Ο Ρ Τ Υ Χ (upper)
  [0x03bf, 'o'], [0x03bd, 'v'], [0x0391, 'A'], [0x0392, 'B'], [0x0395, 'E'], [0x0396, 'Z'],
  [0x0397, 'H'], [0x0399, 'I'], [0x039a, 'K'], [0x039c, 'M'], [0x039d, 'N'], [0x039f, 'O'],
  [0x03a1, 'P'], [0x03a4, 'T'], [0x03a5, 'Y'], [0x03a7, 'X'],
]);
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
  const latin = CONFUSABLES.get(cp);
  if (latin !== undefined) {
    return latin;
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
  return numberDigits(cp) ?? compatibilityLetter(char) ?? null;
}

const ASCII_LETTER = /^[A-Za-z]$/;

/**
 * A letter that NFKC writes as one ASCII letter: mathematical alphanumerics (𝐚, 𝖺, 𝕒),
 * circled (ⓐ) and modifier letters (ᵃ), the Kelvin sign. They render as the letter, so
 * "𝐚𝐥𝐢𝐜𝐞@𝐞𝐱𝐚𝐦𝐩𝐥𝐞.𝐜𝐨𝐦" is an address and "𝐃𝐄89 …" an IBAN.
 */
function compatibilityLetter(char: string): string | undefined {
  const nfkc = char.normalize('NFKC');
  return ASCII_LETTER.test(nfkc) ? nfkc : undefined;
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
