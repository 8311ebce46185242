import fc from 'fast-check';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

import { validNanp } from './nanp-plan';

/** The seed is in the suite's name; set REDACTION_SEED to replay one. */
const SEED = Number(process.env.REDACTION_SEED ?? 37036);

const libphonenumber = (raw: string): boolean =>
  parsePhoneNumberFromString(raw, 'US')?.isValid() === true;

describe(`validNanp agrees with libphonenumber (seed ${SEED})`, () => {
  it.each([
    ['4155550134', true],
    ['14155550134', true],
    ['2125550134', true],
    ['2345234523', true],
    ['2323232323', false],
    ['1212121212', false],
    ['9999999999', false],
    ['4165550134', true], // Toronto
    ['2684601234', true], // Antigua
    ['415555013', false],
    ['24155550134', false],
  ])('on %s', (digits, valid) => {
    expect(validNanp(digits)).toBe(valid);
    expect(libphonenumber(digits)).toBe(valid);
  });

  it('on random ten- and eleven-digit numbers', () => {
    const digit = fc.integer({ min: 0, max: 9 });
    const number = fc.oneof(
      fc.array(digit, { minLength: 10, maxLength: 10 }),
      fc.array(digit, { minLength: 10, maxLength: 10 }).map((d) => [1, ...d]),
      // Area code and exchange from 2–9, where most valid numbers are.
      fc
        .tuple(fc.integer({ min: 2, max: 9 }), fc.array(digit, { minLength: 9, maxLength: 9 }))
        .map(([a, rest]) => [a, ...rest.slice(0, 2), 2 + (rest[2] % 8), ...rest.slice(3)]),
    );
    fc.assert(
      fc.property(number, (ds) => {
        const digits = ds.join('');
        expect(validNanp(digits)).toBe(libphonenumber(digits));
      }),
      { seed: SEED, numRuns: 3000 },
    );
  });
});
