import { allMatches } from './all-matches';
import { detectCreditCards } from './detectors/credit-card.detector';
import { detectDatesOfBirth } from './detectors/date-of-birth.detector';
import { type Detection, type DetectorOptions } from './detectors/detector';
import { detectIbans } from './detectors/iban.detector';
import { detectInternationalAddresses } from './detectors/international-address.detector';
import { detectIpAddresses } from './detectors/ip-address.detector';
import { detectPhones } from './detectors/phone.detector';
import { detectSpokenEmails } from './detectors/spoken-email';
import { detectSsns } from './detectors/ssn.detector';
import { detectStreetAddresses } from './detectors/street-address.detector';
import { findDigitRuns } from './spoken-digits';

const shape = (ms: Iterable<RegExpMatchArray>) =>
  [...ms].map((m) => ({ index: m.index, groups: [...m] }));

describe('allMatches', () => {
  it.each([
    [/\d+/g, 'order 48213 and 7, then 90210'],
    [/(?<word>\p{L}+)/gu, 'café 🍰 naïve'],
    [/x*/g, 'axxb'], // empty matches advance one unit
    [/(?:)/gu, 'a🍰b'], // in unicode mode an empty match steps over a whole surrogate pair
    [/\d/gy, '12a3'], // sticky: stops at the first miss, as matchAll does
    [/ab/gi, 'AB ab aB'],
  ])('finds what matchAll finds: %s in %j', (pattern, text) => {
    expect(shape(allMatches(pattern, text))).toEqual(shape(text.matchAll(pattern)));
    expect(pattern.lastIndex).toBe(0);
  });

  it('starts at 0 whatever lastIndex a pattern was left at, and leaves it at 0', () => {
    const sut = /\d+/g;
    sut.lastIndex = 5;
    expect(allMatches(sut, '12 34 56').map((m) => m[0])).toEqual(['12', '34', '56']);
    expect(sut.lastIndex).toBe(0);
  });

  it('refuses a non-global pattern, as matchAll does', () => {
    expect(() => allMatches(/\d/, '1')).toThrow(TypeError);
  });

  it('is bounded by the text: 64 KB of matches in one pass', () => {
    const text = '1 '.repeat(32_768);
    expect(allMatches(/\d/g, text)).toHaveLength(32_768);
  });
});

describe('detectors scan without cloning their patterns (matchAll clones on every call)', () => {
  const options: DetectorOptions = { enabled: new Set(), phoneRegions: ['US'] };
  // Each detector's patterns get something to scan: digits, birth words, address cues.
  const text =
    'My birthday is March 14th 1985, born 03/14/1985. Send it to 12 rue de la Paix, ' +
    'Calle Mayor 5, Hauptstraße 7, my address is 221 Baker Street, PO Box 42. ' +
    'IBAN GB82 WEST 1234 5698 7654 32 from 192.168.1.20; call four one five five five one two. ' +
    'Card 4111 1111 1111 1111, SSN 123-45-6789, phone (415) 555-0132, jane dot doe at gmail dot com.';

  it.each([
    ['date of birth', (out: Detection[]) => detectDatesOfBirth(text, options, out)],
    ['IBAN', (out: Detection[]) => detectIbans(text, options, out)],
    ['IP address', (out: Detection[]) => detectIpAddresses(text, options, out)],
    ['street address', (out: Detection[]) => detectStreetAddresses(text, options, out)],
    [
      'international address',
      (out: Detection[]) => detectInternationalAddresses(text, options, out),
    ],
    ['spoken digits', () => findDigitRuns(text)],
    ['credit card', (out: Detection[]) => detectCreditCards(text, options, out)],
    ['SSN', (out: Detection[]) => detectSsns(text, options, out)],
    ['phone', (out: Detection[]) => detectPhones(text, options, out)],
    ['spoken e-mail', (out: Detection[]) => detectSpokenEmails(text, out)],
  ])('%s', (_name, detect) => {
    const matchAll = jest.spyOn(RegExp.prototype, Symbol.matchAll);
    try {
      const out: Detection[] = [];
      detect(out);
      expect(matchAll).not.toHaveBeenCalled();
    } finally {
      matchAll.mockRestore();
    }
  });
});
