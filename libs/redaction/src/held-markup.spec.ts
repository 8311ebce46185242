import { Redactor } from './redactor';
import { unionSpans } from './resolve';

/**
 * Markup kept as written because it may hold a value (a spaced or quoted attribute, a digit,
 * a comment with words) is read twice: as written, and dropped. Each case here fails on the
 * code before the second reading: the tag split the number and half of it stayed readable.
 */
describe('markup that may hold a value', () => {
  const sut = new Redactor();

  it.each<[string, string, string]>([
    [
      'a quoted attribute with a space',
      `call me at 4<span class='a b'>1</span>5 555 2671 ok`,
      'call me at [REDACTED:PHONE] ok',
    ],
    [
      'a title with words',
      'call me at 415 555 <b title="x y">2</b>671 ok',
      'call me at [REDACTED:PHONE] ok',
    ],
    [
      'a digit in an attribute',
      'my ssn is 536-<span data-n="7">22</span>-1234 ok',
      'my ssn is [REDACTED:SSN] ok',
    ],
    ['a comment with words', 'card 4111 <!-- a b -->1111 1111 1111 ok', 'card [REDACTED:CC] ok'],
    [
      'a mailto link inside an address',
      'write to ali<a href="mailto:x@y.z">ce.jones@example.com</a> ok',
      'write to [REDACTED:EMAIL]</a> ok',
    ],
  ])('%s', (_name, text, masked) => {
    expect(sut.redact(text).text).toBe(masked);
  });

  it('still reads what the attribute holds', () => {
    const text =
      '<span title="alice at example dot com">hi</span> 4<span title="x y">1</span>5 555 2671';
    expect(sut.redact(text).text).toBe('<span title="[REDACTED:EMAIL]">hi</span> [REDACTED:PHONE]');
  });

  it('is idempotent', () => {
    const once = sut.redact(`4<span class='a b'>1</span>5 555 2671 and <b title="a b">x</b>`).text;
    expect(sut.redact(once).text).toBe(once);
  });

  it('unites overlapping masks of two readings as one, typed as the longer', () => {
    const a = [
      { type: 'EMAIL' as const, start: 5, end: 10 },
      { type: 'IBAN' as const, start: 40, end: 44 },
    ];
    const b = [
      { type: 'PHONE' as const, start: 0, end: 20 },
      { type: 'US_SSN' as const, start: 30, end: 35 },
    ];
    expect(unionSpans(a, b)).toEqual([
      { type: 'PHONE', start: 0, end: 20 },
      { type: 'US_SSN', start: 30, end: 35 },
      { type: 'IBAN', start: 40, end: 44 },
    ]);
  });
});
