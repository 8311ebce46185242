import type { EntityType } from '../entity-types';
import { Redactor } from '../redactor';

type Finding = [EntityType, string];

describe('DATE_OF_BIRTH', () => {
  const sut = new Redactor();
  const findings = (text: string): Finding[] =>
    sut.redact(text).entities.map((e) => [e.type, text.slice(e.start, e.end)]);

  it.each<[string, string, string]>([
    ['US numeric after DOB', 'DOB: 03/14/1985', '03/14/1985'],
    ['D.O.B. with dashes', 'D.O.B. 3-14-85 on file', '3-14-85'],
    ['day-first numeric', 'date of birth 14.03.1985', '14.03.1985'],
    ['ISO', 'birthdate 1985-03-14 confirmed', '1985-03-14'],
    ['written month first with ordinal', 'I was born March 14th, 1985.', 'March 14th, 1985'],
    ['abbreviated month, day first, two-digit year', 'birthday 14 Mar 85', '14 Mar 85'],
    ['"of" form', 'born on the 14th of March 1985', '14th of March 1985'],
    ['apostrophe year', "bday is Mar. 14 '85", "Mar. 14 '85"],
    ['no year', 'my birthday is March 14th', 'March 14th'],
    ['context after the date', '3/14/1985 is my birthday', '3/14/1985'],
    [
      'context across a speaker turn',
      'Agent: And your date of birth?\nCaller: June 2nd, 1979.',
      'June 2nd, 1979',
    ],
    ['upper-case context', 'BORN 07/04/1976', '07/04/1976'],
    ['year first with slashes', 'date of birth: 1985/07/04', '1985/07/04'],
    ['year first with dots', 'DOB 1985.07.04.', '1985.07.04'],
    // Split over two messages of a window: the mask covers the speaker label.
    ['the year in the next turn', 'born on July 4,\ncustomer: 1985 ok', 'July 4,\ncustomer: 1985'],
    ['the day in the next turn', 'born on 4\nCaller: July 1985', '4\nCaller: July 1985'],
    // Said in words (date-words.ts).
    [
      'an ordinal day and a year in words',
      'born on July fourth nineteen eighty five ok',
      'July fourth nineteen eighty five',
    ],
    [
      'day first, year in words',
      'born on the twenty-first of March, two thousand and one',
      'twenty-first of March, two thousand and one',
    ],
    ['"the" before the day, no year', 'my birthday is July the fourth', 'July the fourth'],
    ['a year in digits', 'date of birth June twenty first, 1990.', 'June twenty first, 1990'],
  ])('masks %s', (_name, text, expected) => {
    expect(findings(text)).toEqual([['DATE_OF_BIRTH', expected]]);
  });

  it.each<[string, string]>([
    ['a date with no birth context', 'your appointment is 03/14/1985'],
    ['a booking date', 'book a table on March 8th'],
    ['an impossible date', 'DOB 02/30/1985'],
    ['an impossible month', 'DOB 13/13/1985'],
    ['a future year', 'DOB 03/14/2999'],
    ['a year before 1900', 'DOB 03/14/1850'],
    ['a timestamp', 'born at 2024-03-14T10:22:33Z'],
    ['a context far away', `born in Ohio. ${'x'.repeat(60)} then 03/14/1985`],
    ['a month-year only', 'born in March 1985'],
    ['a year only', 'born in 1985'],
    ['year first with mixed separators', 'DOB 1985/07-04'],
    ['a date in words with no birth context', 'we met on July fourth nineteen eighty five'],
    ['an impossible date in words', 'born February thirtieth'],
  ])('leaves %s alone', (_name, text) => {
    expect(findings(text)).toEqual([]);
  });

  it('masks only the date nearest each birth keyword', () => {
    const text = 'my birthday is 03/14/1985; please book me for 03/20/2024';
    expect(findings(text)).toEqual([['DATE_OF_BIRTH', '03/14/1985']]);
  });
});
