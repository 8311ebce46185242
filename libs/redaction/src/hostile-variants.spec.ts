import { seededRandom, testIterations } from '../../../test/support/seeded';
import { HOSTILE_VALUES, type HostileValue } from './hostile-values';
import { HOSTILE_CLASSES, type HostileClass, hostileVariant, leaks } from './hostile-variants';
import { Redactor } from './redactor';

/**
 * Playing the attacker: every class of hostile writing (hostile-variants.ts) applied to
 * every value it fits, with seeded randomness (TEST_SEED replays a run, TEST_ITERATIONS
 * explores more). Nothing of the value may survive: each of its letters and digits lies
 * inside a mask. A failure prints the variant and what leaked.
 */
describe('Redaction against hostile variants', () => {
  const sut = new Redactor();
  const { random } = seededRandom('hostile redaction variants');
  const rounds = testIterations('hostile redaction variants', 25);
  const cases: Array<[string, string, HostileClass, HostileValue]> = HOSTILE_CLASSES.flatMap(
    (cls) =>
      HOSTILE_VALUES.filter(cls.applies).map(
        (v) => [cls.name, v.name, cls, v] as [string, string, HostileClass, HostileValue],
      ),
  );

  it.each(cases)('%s: the %s is masked whole', (_cls, _value, cls, value) => {
    const leaked: Array<{ text: string; leaked: string[] }> = [];
    for (let round = 0; round < rounds; round++) {
      const variant = hostileVariant(cls, value, random);
      const found = leaks(variant, sut.redact(variant.text).entities);
      if (found.length > 0) {
        leaked.push({ text: variant.text, leaked: found });
      }
    }
    expect(leaked.slice(0, 3)).toEqual([]);
  });

  it('keeps what each variant class leaves outside the value', () => {
    // The sentence around a value is not masked: the classes hide the value, not the prose.
    for (const value of HOSTILE_VALUES) {
      const [before, after] = value.sentence.split('{}');
      const masked = sut.redact(value.sentence.replace('{}', value.value)).text;
      expect(masked.startsWith(before.trimEnd())).toBe(true);
      expect(masked.endsWith(after.trimStart())).toBe(true);
    }
  });
});
