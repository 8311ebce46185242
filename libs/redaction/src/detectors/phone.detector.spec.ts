import type { EntityType } from '../entity-types';
import { Redactor } from '../redactor';
import { dictatedPhoneLengths, isDictatedPhone } from './phone.detector';

type Finding = [EntityType, string];

describe('PHONE', () => {
  const sut = new Redactor();
  const findings = (text: string, redactor = sut): Finding[] =>
    redactor.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

  it.each<[string, string, string]>([
    ['parenthesised area code', 'call (415) 555-0134 today', '(415) 555-0134'],
    ['dashed', 'call 415-555-0134 today', '415-555-0134'],
    ['dotted', 'call 415.555.0134 today', '415.555.0134'],
    ['spaced', 'call 415 555 0134 today', '415 555 0134'],
    ['+1 prefix', 'call +1 415-555-0134 today', '+1 415-555-0134'],
    ['E.164', 'call +14155550134 today', '+14155550134'],
    ['toll-free with trunk prefix', 'call 1-800-555-0134 today', '1-800-555-0134'],
    ['bare ten digits', 'call me at 4155550134', '4155550134'],
    ['local seven digits', 'my number is 555-0199.', '555-0199'],
    ['local with parenthesised exchange (the spec example)', 'old number (555) 0100', '(555) 0100'],
    ['fictional 555 area code in a phone layout', 'dial 555-555-0134', '555-555-0134'],
    ['UK in international form', 'London office +44 20 7946 0958', '+44 20 7946 0958'],
    ['India in international form', 'Delhi +91 11 4903 1234', '+91 11 4903 1234'],
    ['France in international form', 'Paris +33 1 44 72 42 00', '+33 1 44 72 42 00'],
    ['glued to a label colon', 'Phone:415-555-0134', '415-555-0134'],
    ['followed by a stray number', 'call 415 555 0134 5 times', '415 555 0134'],
    ['a real SGD business number', 'Their number is 707-789-9068.', '707-789-9068'],
    ['a glued extension', 'desk 415-555-0134x22 today', '415-555-0134'],
    ['a 3-7 grouping', 'call 415 5550134 today', '415 5550134'],
  ])('masks %s', (_name, text, expected) => {
    expect(findings(text)).toEqual([['PHONE', expected]]);
  });

  it.each<[string, string]>([
    ['an order id', 'Order ABC-12345 shipped'],
    ['an order number that is a valid US number', 'order #4155550134 shipped'],
    ['an order number after a label', 'order number 4155550134 shipped'],
    ['an invoice number in phone layout', 'invoice 555-0199 paid'],
    ['a price', 'it costs $1,234.56 today'],
    ['a large price', 'total $4155550134'],
    ['a decimal', 'ratio 415.5550134'],
    ['a timestamp', 'at 2024-03-14 10:22:33 UTC'],
    ['an ISO timestamp', 'at 2024-03-14T10:22:33Z'],
    ['a version string', 'upgrade to v1.2.3 or version 10.15.7'],
    ['a dotted date', 'on 03.14.2024'],
    ['bare seven digits', 'ref 5550199'],
    ['an invalid area code', 'call 123-456-7890'],
    ['a ZIP+4', 'Springfield, IL 62704-1234'],
    ['an ISBN', 'ISBN 978-0-306-40615-7'],
    ['a time range', 'open 10:00-11:30 daily'],
    ['a flight and time', 'Flight UA 1234 departs 10:30'],
    ['a UK national number without phone context when only US is configured', 'lot 020 7946 0958'],
    ['digits in a non-phone grouping', 'lot 87622673 29 sold'],
  ])('leaves %s alone', (_name, text) => {
    expect(findings(text)).toEqual([]);
  });

  it('recognises national formats of the configured regions', () => {
    const uk = new Redactor({ phoneRegions: ['GB'] });
    expect(findings('ring 020 7946 0958 today', uk)).toEqual([['PHONE', '020 7946 0958']]);
    expect(
      findings('ring 020 7946 0958 or 415-555-0134', new Redactor({ phoneRegions: ['GB', 'US'] })),
    ).toEqual([
      ['PHONE', '020 7946 0958'],
      ['PHONE', '415-555-0134'],
    ]);
  });

  it('rejects an unsupported region at construction', () => {
    expect(() => new Redactor({ phoneRegions: ['XX' as never] })).toThrow(
      /Unsupported phone region/,
    );
  });
});

describe('dictatedPhoneLengths', () => {
  it('admits exactly the lengths isDictatedPhone can accept', () => {
    const nanp = dictatedPhoneLengths(['US', 'CA']);
    expect([5, 6, 7, 8, 9, 10, 11, 12].filter(nanp)).toEqual([7, 10, 11]);
    for (let length = 1; length <= 15; length++) {
      const digits = '2'.repeat(length);
      if (isDictatedPhone(digits, ['US'])) {
        expect(nanp(length)).toBe(true);
      }
    }
    expect(dictatedPhoneLengths(['US', 'GB'])(9)).toBe(true);
  });
});
