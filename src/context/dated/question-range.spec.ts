import { MAX_SCANNED_CHARS, questionRange as sut } from './question-range';

const iso = (r: ReturnType<typeof sut>) => r && [r.from.toISOString(), r.to.toISOString()];
const day = (d: string) => {
  const from = new Date(`${d}T00:00:00.000Z`);
  return [from.toISOString(), new Date(from.getTime() + 86_400_000).toISOString()];
};
const span = (from: string, to: string) => [`${from}T00:00:00.000Z`, `${to}T00:00:00.000Z`];

describe('questionRange', () => {
  describe('absolute dates, with or without a reference', () => {
    it.each([
      ['What did Maria bake on 7 May 2023?', day('2023-05-07')],
      ['Who did Maria have dinner with on May 3, 2023?', day('2023-05-03')],
      ['What did Gina find on 1 February, 2023?', day('2023-02-01')],
      ['What happened on the 8th of May, 2023?', day('2023-05-08')],
      ['and on May 7th 2023 they', day('2023-05-07')],
      ['Sept. 3, 2022 was the trip', day('2022-09-03')],
      ['the order of 2023-05-07 arrived', day('2023-05-07')],
      ['What setback did Melanie face in October 2023?', span('2023-10-01', '2023-11-01')],
      ['What did they paint in December, 2023?', span('2023-12-01', '2024-01-01')],
      [
        'Which career-high performances did John achieve in 2023?',
        span('2023-01-01', '2024-01-01'),
      ],
      ['FEBRUARY 29, 2024', day('2024-02-29')],
      ['Where was the picture shared on December 1,2023 taken?', day('2023-12-01')],
      ['in May,2023', span('2023-05-01', '2023-06-01')],
    ])('%s', (question, expected) => {
      expect(iso(sut(question))).toEqual(expected);
      expect(iso(sut(question, new Date('2030-01-01T00:00:00Z')))).toEqual(expected);
    });

    it('the most specific form wins over a looser one later in the text', () => {
      expect(iso(sut('In 2022 or on 5 March 2023?'))).toEqual(day('2023-03-05'));
    });
  });

  describe('yearless and relative dates need a reference time', () => {
    const ref = new Date('2023-06-14T15:30:00Z'); // a Wednesday
    it.each([
      ['What happened on the 8th of May?', day('2023-05-08')],
      ['on May 8 they met', day('2023-05-08')],
      ['the 8th of may', day('2023-05-08')],
      ['since june', span('2023-06-01', '2023-07-01')],
      ['on the 20th of June', day('2022-06-20')], // after the reference: last year's
      ['When did Melanie go camping in June?', span('2023-06-01', '2023-07-01')],
      ['in July', span('2022-07-01', '2022-08-01')],
      ['what did I order yesterday', day('2023-06-13')],
      ['anything today?', day('2023-06-14')],
      ['the call last week', span('2023-06-05', '2023-06-12')],
      ['this week', span('2023-06-12', '2023-06-19')],
      ['last month', span('2023-05-01', '2023-06-01')],
      ['last year', span('2022-01-01', '2023-01-01')],
      ['3 days ago', day('2023-06-11')],
      ['two weeks ago', span('2023-05-29', '2023-06-05')],
      ['what did I buy last Saturday?', day('2023-06-10')],
      ['LAST  wednesday', day('2023-06-07')], // today is one: the week before
      ['last Thursday', day('2023-06-08')],
    ])('%s', (question, expected) => {
      expect(iso(sut(question, ref))).toEqual(expected);
      expect(sut(question)).toBeUndefined();
    });

    it('last month in January is December of the year before', () => {
      expect(iso(sut('last month', new Date('2024-01-10T00:00:00Z')))).toEqual(
        span('2023-12-01', '2024-01-01'),
      );
    });

    it('an invalid reference counts as none', () => {
      expect(sut('yesterday', new Date(Number.NaN))).toBeUndefined();
      expect(iso(sut('on 7 May 2023', new Date(Number.NaN)))).toEqual(day('2023-05-07'));
    });
  });

  describe('names no range rather than guess', () => {
    const ref = new Date('2023-06-14T15:30:00Z');
    it.each([
      'What does Caroline like to paint?',
      'you may 2 of them', // "may" the verb, a number after it
      'I may go in may',
      'room 2023 on floor 3',
      'call 555-2023',
      'in 1850',
      'in 2300',
      'on 31 April 2023', // no such day
      'February 29, 2023',
      'on 99 May 2023',
      'on 2023-13-01',
      'id 12345-05-07',
      `May${' '.repeat(50)}7, 2023`, // more space than a date has
      '',
    ])('%j', (question) => {
      expect(sut(question, ref)).toBeUndefined();
    });
  });

  describe('hostile input', () => {
    it(`reads only the first ${MAX_SCANNED_CHARS} characters`, () => {
      const padding = 'may '.repeat(MAX_SCANNED_CHARS / 4);
      expect(sut(`${padding} on 7 May 2023`)).toBeUndefined();
      expect(iso(sut(`on 7 May 2023 ${padding}`))).toEqual(day('2023-05-07'));
    });

    it('near-misses repeated across a long text parse to nothing, and to the date after them', () => {
      const near = 'May 7, 202 '.repeat(150) + 'the 3rd of June 20 ';
      expect(sut(near)).toBeUndefined();
      expect(iso(sut(`${'12 may, '.repeat(100)}12 may, 2023`))).toEqual(day('2023-05-12'));
    });

    it('control characters, other scripts and huge numbers never throw', () => {
      for (const q of [
        '\u0000May\u00007, 2023',
        '五月 7, 2023',
        `${'9'.repeat(400)} May 2023`,
        'on 7 May 99999999999',
        'in 0000',
        '\uD800May 7, 2023',
      ]) {
        expect(() => sut(q, new Date('2023-06-14T00:00:00Z'))).not.toThrow();
      }
      expect(sut('on 7 May 99999999999')).toBeUndefined();
    });
  });
});
