import { allMatches } from '../all-matches';
import { BASE_CONFIDENCE } from '../entity-types';
import { linear } from '../linear';
import type { Detection, DetectorOptions } from './detector';

/**
 * IBAN length per country (SWIFT IBAN registry). A country missing here is still accepted
 * on the checksum alone: a missed IBAN costs more than the 1-in-97 chance of masking a
 * look-alike, and the registry keeps growing.
 */
// prettier-ignore
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BI: 27, BR: 29,
  BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DJ: 27, DK: 18, DO: 28, EE: 20, EG: 29,
  ES: 24, FI: 18, FK: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28,
  HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26, IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28,
  LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, LY: 25, MC: 27, MD: 24, ME: 22, MK: 19, MN: 20,
  MR: 27, MT: 31, MU: 30, NI: 28, NL: 18, NO: 15, OM: 23, PK: 24, PL: 28, PS: 29, PT: 25,
  QA: 29, RO: 24, RS: 22, RU: 33, SA: 24, SC: 31, SD: 18, SE: 24, SI: 19, SK: 24, SM: 27,
  SO: 23, ST: 25, SV: 28, TL: 23, TN: 24, TR: 26, UA: 29, VA: 22, VG: 24, XK: 20, YE: 30,
};

/**
 * ISO 13616 check: move the first four characters to the end, map letters to 10–35 and
 * take the number mod 97, which must be 1. Computed digit by digit so no BigInt is needed.
 */
export function ibanChecksumValid(compact: string): boolean {
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let remainder = 0;
  for (let i = 0; i < rearranged.length; i++) {
    const code = rearranged.charCodeAt(i);
    if (code >= 48 && code <= 57) {
      remainder = (remainder * 10 + (code - 48)) % 97;
    } else if (code >= 65 && code <= 90) {
      remainder = (remainder * 100 + (code - 55)) % 97;
    } else {
      return false;
    }
  }
  return remainder === 1;
}

/** True for an uppercase, space-free string that is a valid IBAN. */
export function isIban(compact: string): boolean {
  if (compact.length < 15 || compact.length > 34) {
    return false;
  }
  const expected = IBAN_LENGTHS[compact.slice(0, 2)];
  if (expected !== undefined && expected !== compact.length) {
    return false;
  }
  return ibanChecksumValid(compact);
}

/**
 * Country code and check digits (never spaced apart: "in 1974 a …" would pass mod 97 one
 * time in 97), then alphanumerics, then up to ten
 * blocks separated by a space, dash, dot or slash (`DE89-3704-0044-…`, `DE89.3704.…`: the
 * mod-97 check keeps look-alikes out whatever joins the blocks). Every part is bounded by
 * the longest IBAN (34) and must end its word, so an attempt reads a bounded window. It may
 * swallow a following word, which {@link detectIbans} trims off again.
 */
const RUN = linear(
  /\b[A-Z]{2}\d{2}[A-Z0-9]{0,30}(?![A-Z0-9])(?:[ ./-][A-Z0-9]{1,34}(?![A-Z0-9])){0,10}/gi,
);
const SEPARATOR = /[ ./-]/;

/** IBANs, contiguous or in blocks, upper or lower case, validated by length and mod 97. */
export function detectIbans(text: string, _options: DetectorOptions, out: Detection[]): void {
  for (const m of allMatches(RUN, text)) {
    const blocks = m[0].split(SEPARATOR);
    // Longest prefix of whole blocks that validates; a trailing word rarely does.
    for (let k = blocks.length; k >= 1; k--) {
      const compact = blocks.slice(0, k).join('').toUpperCase();
      if (compact.length < 15) {
        break;
      }
      if (isIban(compact)) {
        const end = m.index + blocks.slice(0, k).join(' ').length; // one-char separators
        out.push({ type: 'IBAN', start: m.index, end, score: BASE_CONFIDENCE.IBAN });
        break;
      }
    }
  }
}
