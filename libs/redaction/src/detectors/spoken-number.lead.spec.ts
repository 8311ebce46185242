import { Redactor } from '../redactor';

/**
 * A national number of another region read out digit by digit: its trunk "zero" or spoken
 * country code ("plus four four") is masked with the rest. Each case fails on the code
 * before: the lead stayed readable in front of the mask.
 */
describe('dictated numbers with a lead', () => {
  const sut = new Redactor();

  it.each<[string, string, string]>([
    [
      'a French trunk zero',
      'appelle-moi au zero six one two three four five six seven eight ce soir',
      'appelle-moi au [REDACTED:SSN] ce soir',
    ],
    [
      'a spoken UK country code',
      'my mobile is plus four four two zero seven nine four six zero nine five eight now',
      'my mobile is [REDACTED:SSN] now',
    ],
    [
      'a written plus, numerals mixed in',
      'my mobile is + four four 20 seven nine four six zero nine five eight now',
      'my mobile is [REDACTED:PHONE] now',
    ],
  ])('%s', (_name, text, masked) => {
    expect(sut.redact(text).text).toBe(masked);
  });

  it.each<[string, string, string]>([
    [
      'a US number read whole',
      'call me at four one five five five five two six seven one',
      'call me at [REDACTED:PHONE]',
    ],
    [
      'a US number after "plus one"',
      'call me at plus one four one five five five five two six seven one',
      'call me at [REDACTED:PHONE]',
    ],
    ['an SSN', 'my ssn is five three six two two one two three four', 'my ssn is [REDACTED:SSN]'],
  ])('keeps the type of a number validated whole: %s', (_name, text, masked) => {
    expect(sut.redact(text).text).toBe(masked);
  });

  it('leaves more than three digits before a number as they were said', () => {
    const text = 'room one two three four, call four one five five five five two six seven one';
    expect(sut.redact(text).text).toBe('room one two three four, call [REDACTED:PHONE]');
  });
});
