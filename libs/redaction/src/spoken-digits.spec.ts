import type { EntityType } from './entity-types';
import { Redactor } from './redactor';
import { findDigitRuns } from './spoken-digits';

type Finding = [EntityType, string];

const CARD_WORDS = 'four one one one one one one one one one one one one one one one';

describe('spoken digit runs', () => {
  describe('findDigitRuns', () => {
    const digitsOf = (text: string): string[] =>
      findDigitRuns(text).map((run) => run.tokens.map((t) => t.digits).join(''));

    it.each<[string, string, string[]]>([
      ['number words', 'it is five five five oh one nine nine ok', ['5550199']],
      ['spaced numerals', 'it is 5 5 5 0 1 9 9 ok', ['5550199']],
      ['zero, oh and nought', 'zero oh nought one two three four', ['0001234']],
      ['double and triple', 'double five triple nine oh one', ['55999' + '01']],
      ['tens joined with a unit', 'five five five oh one ninety nine', ['5550199']],
      ['tens alone ("oh" does not join)', 'four one five twenty oh five five', ['41520055']],
      ['eight hundred', 'one eight hundred five five five oh one', ['180055501']],
      ['teens', 'five five five oh one nineteen', ['55501' + '19']],
      ['fillers between digits', 'five five uh five, oh um one nine nine', ['5550199']],
      ['mixed numerals and words', '415 five five five oh one three four', ['4155550134']],
      [
        'a run split across a newline (joined transcript windows)',
        'five five five\noh one nine nine',
        ['5550199'],
      ],
    ])('normalises %s', (_name, text, expected) => {
      expect(digitsOf(text)).toEqual(expected);
    });

    it.each<[string, string]>([
      ['short runs', 'one two three'],
      ['written groups (not dictation)', 'call 415 555 0134'],
      ['a thousands separator', 'it costs 1,234,567 dollars'],
      ['a decimal', 'about 3.1415926 radians'],
      ['words split by other words', 'one or two, maybe three or four, five, six and seven'],
      ['number words inside other words', 'someone often tones down eighteenth-century nineties'],
    ])('ignores %s', (_name, text) => {
      expect(digitsOf(text)).toEqual([]);
    });

    it('maps every digit token back to the words that spoke it', () => {
      const text = 'call twenty one double five';
      const [run] = findDigitRuns(text, 1);
      expect(run.tokens.map((t) => [text.slice(t.start, t.end), t.digits])).toEqual([
        ['twenty one', '21'],
        ['double five', '55'],
      ]);
    });
  });

  describe('redaction of spoken forms', () => {
    const sut = new Redactor();
    const findings = (text: string): Finding[] =>
      sut.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

    it.each<[string, string, Finding[]]>([
      ['a card read word by word', `my card is ${CARD_WORDS}`, [['CREDIT_CARD', CARD_WORDS]]],
      [
        'a card read as spaced digits',
        'card 4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 thanks',
        [['CREDIT_CARD', '4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1']],
      ],
      [
        'a card in mixed numerals and words',
        'card 4111 one one one one one one one one one one one one',
        [['CREDIT_CARD', '4111 one one one one one one one one one one one one']],
      ],
      [
        'a card followed by its expiry',
        `card ${CARD_WORDS} one two two seven`,
        [['CREDIT_CARD', CARD_WORDS]],
      ],
      [
        'a local phone as spaced digits',
        'reach me on 5 5 5 0 1 9 9 ok',
        [['PHONE', '5 5 5 0 1 9 9']],
      ],
      [
        'a local phone with "oh"',
        'it is five five five oh one nine nine',
        [['PHONE', 'five five five oh one nine nine']],
      ],
      [
        'a ten-digit phone with pauses',
        'four one five, five five five, oh one three four.',
        [['PHONE', 'four one five, five five five, oh one three four']],
      ],
      [
        'a toll-free number',
        'dial one eight hundred five five five oh one three four',
        [['PHONE', 'one eight hundred five five five oh one three four']],
      ],
      [
        'double and tens',
        'it is double five five oh one ninety nine',
        [['PHONE', 'double five five oh one ninety nine']],
      ],
      [
        'an SSN read in groups',
        'my social is five three six, two two, one two three four',
        [['US_SSN', 'five three six, two two, one two three four']],
      ],
      [
        'an upper-case transcript',
        'FIVE FIVE FIVE OH ONE NINE NINE',
        [['PHONE', 'FIVE FIVE FIVE OH ONE NINE NINE']],
      ],
    ])('masks %s', (_name, text, expected) => {
      expect(findings(text)).toEqual(expected);
    });

    it('masks a run split across two concatenated transcript windows', () => {
      const first = 'Agent: go ahead. Caller: my card number is four one one one one one one one';
      const second = 'one one one one one one one one and it expires soon';
      const joined = `${first} ${second}`;
      const result = sut.redact(joined);
      expect(result.entities).toEqual([
        {
          type: 'CREDIT_CARD',
          start: joined.indexOf('four'),
          end: first.length + 1 + 'one one one one one one one one'.length,
        },
      ]);
      expect(result.text).toBe(
        'Agent: go ahead. Caller: my card number is [REDACTED:CC] and it expires soon',
      );
    });

    it('masks a phone number split across windows', () => {
      expect(
        sut.redact(['call me on five five five', 'oh one nine nine thanks'].join(' ')).text,
      ).toBe('call me on [REDACTED:PHONE] thanks');
    });

    it.each<[string, string]>([
      ['ordinary counting', 'I need one or two tickets for three people'],
      ['a short run', 'one two three four'],
      ['interjections', 'Oh, oh, oh! I see.'],
      ['a spoken year', 'back in nineteen eighty five'],
      ['an order number read out', 'order number one two three four five six seven'],
    ])('leaves %s alone', (_name, text) => {
      expect(sut.redact(text).text).toBe(text);
    });

    it('does not call a Luhn-invalid dictated 16-digit number a card', () => {
      const text = 'card four one one one one one one one one one one one one one one two';
      expect(sut.redact(text).entities.map((e) => e.type)).not.toContain('CREDIT_CARD');
    });

    it('does not call the dictated 123-45-6789 sample an SSN', () => {
      const text = 'ssn one two three four five six seven eight nine';
      expect(sut.redact(text).entities.map((e) => e.type)).not.toContain('US_SSN');
    });
  });
});
