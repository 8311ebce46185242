import type { EntityType } from '../entity-types';
import { Redactor } from '../redactor';
import { ibanChecksumValid, isIban } from './iban.detector';

type Finding = [EntityType, string];

describe('IBAN', () => {
  const sut = new Redactor();
  const findings = (text: string): Finding[] =>
    sut.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

  it.each([
    ['GB82WEST12345698765432', true],
    ['GB82WEST12345698765433', false], // one digit off: mod 97 fails
    ['DE89370400440532013000', true],
    ['DE8937040044053201300', false], // checksum aside, Germany is 22 characters
    ['NO9386011117947', true],
  ])('isIban(%s) is %s', (compact, expected) => {
    expect(isIban(compact)).toBe(expected);
  });

  it('computes the ISO 13616 checksum without big integers', () => {
    expect(ibanChecksumValid('FR1420041010050500013M02606')).toBe(true);
    expect(ibanChecksumValid('FR1420041010050500013M02607')).toBe(false);
  });

  it.each<[string, string, string]>([
    ['a UK IBAN in blocks', 'pay GB82 WEST 1234 5698 7654 32 today', 'GB82 WEST 1234 5698 7654 32'],
    ['a German IBAN contiguous', 'IBAN: DE89370400440532013000.', 'DE89370400440532013000'],
    [
      'a French IBAN with a letter in the BBAN',
      'FR14 2004 1010 0505 0001 3M02 606 ok',
      'FR14 2004 1010 0505 0001 3M02 606',
    ],
    ['a lower-case IBAN', 'nl91 abna 0417 1643 00 thanks', 'nl91 abna 0417 1643 00'],
    ['a Belgian IBAN followed by a word', 'BE68 5390 0754 7034 then', 'BE68 5390 0754 7034'],
    ['dotted blocks', 'iban DE89.3704.0044.0532.0130.00.', 'DE89.3704.0044.0532.0130.00'],
    ['slashed blocks', 'iban DE89/3704/0044/0532/0130/00', 'DE89/3704/0044/0532/0130/00'],
  ])('masks %s', (_name, text, expected) => {
    expect(findings(text)).toEqual([['IBAN', expected]]);
  });

  it.each<[string, string]>([
    ['a checksum failure', 'GB82 WEST 1234 5698 7654 33'],
    ['a wrong length for the country', 'DE89 3704 0044 0532 0130 0'],
    ['a product code', 'model AB12 CDEF 3456'],
    ['a postcode', 'SW1A 1AA London'],
    ['a two-letter word before a dotted number', 'in 12.2024.0044.0532.0130'],
    // A two-letter word and a number: mod 97 alone would pass one in 97 of these.
    ['a year after "in"', 'in 1974 a national maximum'],
    ['a year after "In"', 'In 1916 the college'],
  ])('leaves %s alone', (_name, text) => {
    expect(findings(text)).toEqual([]);
  });
});
