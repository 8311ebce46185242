import fc from 'fast-check';

import type { EntityType } from './entity-types';
import { Redactor } from './redactor';

/**
 * Filler text for the properties. It has no digits and no `@`, and its letters leave out
 * e, o, x and y. That last rule is what makes "digit-free text is unchanged" true rather
 * than merely likely: every word that can start a detection without a digit or an `@`
 * contains one of those letters.
 * - Spoken digits need number words: zero, oh, one … nine, ten … nineteen, twenty …
 *   ninety, hundred, double, triple, nought, niner. Each has an e, o, x or y.
 * - Spoken emails need "dot".
 * - Every other detector needs an ASCII digit (IPv6 included: "dad::bad" and "::" parse
 *   but are ignored without one).
 * The same filler surrounds the generated PII, so it cannot swallow or split it either.
 */
const SAFE_LETTERS = [...'abcdfghijklmnpqrstuvwzABCDFGHIJKLMNPQRSTUVWZ'];
const SAFE_WORDS = [
  'a',
  'i',
  'it',
  'is',
  'in',
  'at',
  'and',
  'that',
  'this',
  'with',
  'was',
  'has',
  'can',
  'will',
  'but',
  'just',
  'did',
  'its',
  'his',
  'what',
  'which',
  'call',
  'card',
  'bank',
  'paid',
  'hi',
  'thanks',
  'hall',
  'trip',
  'plan',
  'uh',
  'um',
  'hmm',
  'Agent:',
  'Caller:',
];
const PUNCTUATION = [',', '.', '!', '?', ';', ':', '(', ')', '"', "'", '-', '\n'];

const word = fc.string({ unit: fc.constantFrom(...SAFE_LETTERS), minLength: 1, maxLength: 10 });
const filler = fc
  .array(fc.oneof(word, fc.constantFrom(...SAFE_WORDS), fc.constantFrom(...PUNCTUATION)), {
    maxLength: 25,
  })
  .map((tokens) => tokens.join(' '));

const digit = fc.integer({ min: 0, max: 9 });

function luhnCheckDigit(partial: string): string {
  for (let check = 0; check <= 9; check++) {
    const digits = partial + check;
    let sum = 0;
    for (let i = 0; i < digits.length; i++) {
      let d = Number(digits[digits.length - 1 - i]);
      if (i % 2 === 1) {
        d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      }
      sum += d;
    }
    if (sum % 10 === 0) {
      return String(check);
    }
  }
  throw new Error('unreachable');
}

/** Card numbers of the major schemes, Luhn-completed, in their printed groupings. */
const cardNumber = fc
  .record({
    scheme: fc.constantFrom(
      { prefix: '4', length: 16 },
      { prefix: '4', length: 13 },
      { prefix: '51', length: 16 },
      { prefix: '55', length: 16 },
      { prefix: '2221', length: 16 },
      { prefix: '6011', length: 16 },
      { prefix: '34', length: 15 },
      { prefix: '37', length: 15 },
    ),
    body: fc.array(digit, { minLength: 18, maxLength: 18 }),
    separator: fc.constantFrom('', ' ', '-'),
  })
  .map(({ scheme, body, separator }) => {
    const partial =
      scheme.prefix + body.slice(0, scheme.length - scheme.prefix.length - 1).join('');
    const digits = partial + luhnCheckDigit(partial);
    const groups =
      scheme.length === 15 ? [4, 6, 5] : scheme.length === 16 ? [4, 4, 4, 4] : [scheme.length];
    let at = 0;
    return { digits, text: groups.map((n) => digits.slice(at, (at += n))).join(separator) };
  })
  .filter(({ digits }) => !/^(\d)\1+$/.test(digits));

const pad = (n: number, width: number): string => String(n).padStart(width, '0');
const SAMPLES = new Set(['078051120', '219099999', '123456789', '457555462']);
const ssn = fc
  .record({
    area: fc.integer({ min: 1, max: 899 }).filter((a) => a !== 666),
    group: fc.integer({ min: 1, max: 99 }),
    serial: fc.integer({ min: 1, max: 9999 }),
    separator: fc.constantFrom('-', ' '),
  })
  .map(({ area, group, serial, separator }) =>
    [pad(area, 3), pad(group, 2), pad(serial, 4)].join(separator),
  )
  .filter((s) => !SAMPLES.has(s.replace(/\D/g, '')));

const nanpPhone = fc
  .record({
    area: fc.integer({ min: 200, max: 999 }),
    exchange: fc.integer({ min: 200, max: 999 }),
    line: fc.integer({ min: 0, max: 9999 }),
    layout: fc.constantFrom(
      '(a) e-l',
      'a-e-l',
      'a.e.l',
      'a e l',
      '+1 a-e-l',
      '+1 (a) e-l',
      '1-a-e-l',
    ),
  })
  .map(({ area, exchange, line, layout }) =>
    layout.replace('a', String(area)).replace('e', String(exchange)).replace('l', pad(line, 4)),
  );

const WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
const spoken = (digits: string): string => [...digits].map((d) => WORDS[Number(d)]).join(' ');

describe('Redactor properties', () => {
  const sut = new Redactor();

  const embedded = <T>(pii: fc.Arbitrary<T>) => fc.tuple(filler, pii, filler);

  /** Embeds `pii` between two fillers and asserts exactly its span comes back as `type`. */
  const expectMaskedAs = (type: EntityType, before: string, pii: string, after: string): void => {
    const text = `${before} ${pii} ${after}`;
    const result = sut.redact(text);
    const start = before.length + 1;
    expect(result.entities).toContainEqual({ type, start, end: start + pii.length });
    expect(result.text).not.toContain(pii);
  };

  it('masks every generated card number, written or dictated', () => {
    fc.assert(
      fc.property(embedded(cardNumber), ([before, card, after]) => {
        expectMaskedAs('CREDIT_CARD', before, card.text, after);
        expectMaskedAs('CREDIT_CARD', before, spoken(card.digits), after);
      }),
    );
  });

  it('masks every generated SSN', () => {
    fc.assert(
      fc.property(embedded(ssn), ([before, s, after]) =>
        expectMaskedAs('US_SSN', before, s, after),
      ),
    );
  });

  it('masks every generated email address (RFC 5322 local parts included)', () => {
    fc.assert(
      fc.property(embedded(fc.emailAddress()), ([before, email, after]) =>
        expectMaskedAs('EMAIL', before, email, after),
      ),
    );
  });

  it('masks every generated US phone number, written or dictated', () => {
    fc.assert(
      fc.property(embedded(nanpPhone), ([before, phone, after]) => {
        // "call" keeps a random word such as "part" or "acct" from reading as an id label.
        expectMaskedAs('PHONE', `${before} call`, phone, after);
        expectMaskedAs('PHONE', `${before} call`, spoken(phone.replace(/\D/g, '')), after);
      }),
    );
  });

  it('returns digit-free, @-free filler unchanged', () => {
    fc.assert(
      fc.property(filler, (text) => {
        expect(sut.redact(text)).toEqual({ text, entities: [] });
      }),
    );
  });

  it('returns digit-free text unchanged when number words never stand next to each other', () => {
    const numberWord = fc.constantFrom(...WORDS, 'oh', 'twenty', 'hundred', 'double');
    const text = fc
      .array(
        fc.tuple(
          numberWord,
          fc.constantFrom(...SAFE_WORDS.filter((w) => !/^(uh|um|hmm)$/.test(w))),
        ),
        {
          maxLength: 20,
        },
      )
      .map((pairs) => pairs.flat().join(' '));
    fc.assert(fc.property(text, (t) => expect(sut.redact(t).text).toBe(t)));
  });

  it('is idempotent and reports disjoint in-bounds offsets on mixed text', () => {
    const piece = fc.oneof(
      filler,
      cardNumber.map((c) => c.text),
      ssn,
      nanpPhone,
      fc.emailAddress(),
      cardNumber.map((c) => spoken(c.digits)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const text = pieces.join(' ');
        const once = sut.redact(text);
        expect(sut.redact(once.text).text).toBe(once.text);
        let at = 0;
        for (const e of once.entities) {
          expect(e.start).toBeGreaterThanOrEqual(at);
          expect(e.end).toBeGreaterThan(e.start);
          at = e.end;
        }
        expect(at).toBeLessThanOrEqual(text.length);
      }),
    );
  });
});
