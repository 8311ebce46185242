import { Redactor } from './redactor';

/**
 * Markup and encodings read as what they show (decode-escapes.ts), and never as a way to
 * hide a value from the detectors: what the decoder drops must not be able to hold one.
 */
describe('decoded markup and encodings', () => {
  const sut = new Redactor();
  const masked = (text: string): string => sut.redact(text).text;

  it.each<[string, string, string]>([
    ['inline tags in a number', 'call 4<b>1</b>5 555 2671', 'call [REDACTED:PHONE]'],
    ['a tag with a class', 'call 4<span class="x">1</span>5 555 2671', 'call [REDACTED:PHONE]'],
    ['block tags between groups', 'card 4111<br>1111<br>1111<br>1111', 'card [REDACTED:CC]'],
    ['empty comments', 'call 415<!---->555<!-- -->2671', 'call [REDACTED:PHONE]'],
    ['markdown around groups', 'call **415** _555_ `2671`', 'call [REDACTED:PHONE]`'],
    ['URL-escaped spaces', 'call me at 415%20555%202671', 'call me at [REDACTED:PHONE]'],
    ['a URL-escaped plus in a tel: URI', 'tel:%2B14155552671', 'tel:[REDACTED:PHONE]'],
    ['UTF-8 URL escapes', 'card %EF%BC%94111 1111 1111 1111', 'card [REDACTED:CC]'],
    ['numeric references', 'card &#52;111 1111 1111 &#x31;111', 'card [REDACTED:CC]'],
    ['JSON escapes', 'alice.jones\\u0040example.com', '[REDACTED:EMAIL]'],
    ['a JSON surrogate pair', 'card \\ud835\\udfd2111 1111 1111 1111', 'card [REDACTED:CC]'],
    ['defanged dots in an IP', 'my ip is 192[.]168[.]1[.]20', 'my ip is [REDACTED:IP]'],
    ['mathematical letters', '𝐚𝐥𝐢𝐜𝐞@𝐞𝐱𝐚𝐦𝐩𝐥𝐞.𝐜𝐨𝐦', '[REDACTED:EMAIL]'],
    ['circled letters', 'ⓐⓛⓘⓒⓔ@ⓔⓧⓐⓜⓟⓛⓔ.ⓒⓞⓜ', '[REDACTED:EMAIL]'],
  ])('reads %s', (_name, text, expected) => {
    expect(masked(text)).toBe(expected);
  });

  it.each<[string, string, string]>([
    [
      'an e-mail in an href',
      '<a href="mailto:alice@example.com">mail</a>',
      '<a href="mailto:[REDACTED:EMAIL]">mail</a>',
    ],
    [
      'a phone in an href',
      '<a href="tel:+14155552671">call</a>',
      '<a href="tel:[REDACTED:PHONE]">call</a>',
    ],
    [
      'a spoken e-mail in a title',
      '<b title="alice.jones at example dot com">hi</b>',
      '<b title="[REDACTED:EMAIL]">hi</b>',
    ],
    ['an e-mail in a comment', '<!-- alice@example.com -->', '<!-- [REDACTED:EMAIL] -->'],
  ])('never hides %s by decoding it away', (_name, text, expected) => {
    expect(masked(text)).toBe(expected);
  });

  it.each<[string, string]>([
    ['an unknown tag', 'x <at> y'],
    ['an unclosed tag', 'a <b class="x" b'],
    ['an unknown named reference', 'fish &chips; 12'],
    ['a percent sign before a digit', 'rates rose 5%20 times'],
    ['a date in slashes', 'on 07/04/1985'],
  ])('leaves %s as written', (_name, text) => {
    expect(sut.redact(text)).toEqual({ text, entities: [] });
  });

  it('keeps a percent-escape that is part of an address as written', () => {
    const text = 'mail %20.a@example.com now';
    expect(sut.redact(text).entities).toEqual([{ type: 'EMAIL', start: 5, end: 22 }]);
  });
});
