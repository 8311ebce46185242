import fc from 'fast-check';

import { adversarial, ADVERSARIAL_SEEDS } from './adversarial';
import { PLACEHOLDERS } from './entity-types';
import { Redactor } from './redactor';

/**
 * Every detector gets 64 KB adversarial strings (long digit, space and dash runs, repeated
 * separators, long words). Running time is not asserted here (a shared CI machine makes
 * wall-clock checks flaky): the linear-time bound is the ratio against a plain scan that
 * `npm run bench:redact` reports. This property proves the inputs are handled at all (a
 * catastrophic pattern would time the suite out) and that the result stays consistent.
 */
describe('Redactor on 64 KB adversarial input', () => {
  const sut = new Redactor();
  const prefixes = ['', 'call ', 'ssn ', 'my address is ', 'x dot ', 'IBAN ', '4111 '];

  it('finishes with offsets that rebuild the output, for every seed', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ADVERSARIAL_SEEDS),
        fc.constantFrom(...prefixes),
        (seed, prefix) => {
          const text = adversarial(seed, 64 * 1024, prefix);
          const result = sut.redact(text);
          let rebuilt = '';
          let at = 0;
          for (const e of result.entities) {
            expect(e.start).toBeGreaterThanOrEqual(at);
            expect(e.end).toBeGreaterThan(e.start);
            rebuilt += text.slice(at, e.start) + PLACEHOLDERS[e.type];
            at = e.end;
          }
          expect(rebuilt + text.slice(at)).toBe(result.text);
        },
      ),
      { numRuns: 40 },
    );
  });
});
