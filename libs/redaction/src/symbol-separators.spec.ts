import { Redactor } from './redactor';

/**
 * Symbols as separators (red team h6): "4111★1111★1111★1111" and "415★555★0132" came back
 * unmasked, and so did `#`, `=` and U+FFFD between the groups. Any punctuation or symbol
 * now joins digit groups; what reads as one number's punctuation (thousands, times) and
 * the shapes of dates, prices, versions and order numbers stay as written.
 */
describe('symbol separators between digit groups', () => {
  const sut = new Redactor();

  it.each([
    ['card 4111★1111★1111★1111', 'card [REDACTED:CC]'],
    ['phone 415★555★0132', 'phone [REDACTED:PHONE]'],
    ['phone 415#555#0132', 'phone [REDACTED:PHONE]'],
    ['card 4111=1111=1111=1111', 'card [REDACTED:CC]'],
    ['phone 415\ufffd555\ufffd0132', 'phone [REDACTED:PHONE]'],
    ['my ssn is 536★22★1234', 'my ssn is [REDACTED:SSN]'],
    ['call +44§20§7946§0958', 'call [REDACTED:PHONE]'],
    ['card 4111\u{1f525}1111\u{1f525}1111\u{1f525}1111', 'card [REDACTED:CC]'],
    ['phone 415 ★ 555 ★ 0132', 'phone [REDACTED:PHONE]'],
    ['card 4111★★1111★★1111★★1111', 'card [REDACTED:CC]'],
    ['phone 415|555|0132', 'phone [REDACTED:PHONE]'],
    ['phone 415:555:0132', 'phone [REDACTED:PHONE]'],
    ['phone 415%555%2671', 'phone [REDACTED:PHONE]'],
    ['phone 415%%555%%2671', 'phone [REDACTED:PHONE]'],
    ['call +44%20%7946%0958', 'call [REDACTED:PHONE]'],
    ['phone 415\ue000555\ue0000132', 'phone [REDACTED:PHONE]'],
    // A list mark with a space on each side is one number written apart, not a list.
    ['call me at 415 ; 555 ; 2671 tonight', 'call me at [REDACTED:PHONE] tonight'],
    ['card 4111 , 1111 , 1111 , 1111', 'card [REDACTED:CC]'],
    // Mixed with the plain separators the detectors read, or with each other (review).
    ['card 4111 1111 1111★1111', 'card [REDACTED:CC]'],
    ['card 4111-1111-1111★1111', 'card [REDACTED:CC]'],
    ['phone 415-555★0132', 'phone [REDACTED:PHONE]'],
    ['phone 415★555#0132', 'phone [REDACTED:PHONE]'],
    ['phone 415.555\ufffd0132', 'phone [REDACTED:PHONE]'],
  ])('masks %j', (text, masked) => {
    expect(sut.redact(text).text).toBe(masked);
  });

  it('still decodes a URL-encoded space between digit groups', () => {
    expect(sut.redact('call 415%20555%200134').text).toBe('call [REDACTED:PHONE]');
  });

  it.each([
    'order #4151 ships on 2024#07#04',
    'it costs $1,234,567 or 1,234,567,890 yen',
    "about 1'234'567 francs",
    'at 10:30:45 and 12:30:45:12, build v1.2.3, ids 12#34#56',
    'ticket #1234#5678 is open',
    'score 3=2=1 and 16:9, 4 ★ 5 ★ 5 stars',
    'ref ABC★1234★5678★9012 and 1234★5678★9012x',
    'the ideals (0), (2), (3), (5), (7), (11), … and picks 20, 30, 40, 50, 60',
    'years 2021; 2022; 2023 and rooms 101, 102, 103',
    'it costs 1,234,567.89 or 12 345,67 and ran 10:30:45.5',
    'scores 3-2★1 and 4 5★6, build 2024.07.04★1',
  ])('leaves %j as written', (text) => {
    expect(sut.redact(text).text).toBe(text);
  });

  it('maps a mask over doubled symbols back onto the input', () => {
    const text = 'card 4111★★1111★★1111★★1111 thanks';
    const [entity] = sut.redact(text).entities;
    expect(text.slice(entity.start, entity.end)).toBe('4111★★1111★★1111★★1111');
  });
});
