/**
 * Dates said in words, as a transcript writes them: "July fourth, nineteen eighty five",
 * "the fourth of July 1985", "March twenty-first two thousand and one". Only the shapes a
 * date of birth is read out in: a month name, an ordinal day word, and an optional year in
 * digits or words. Each pattern is bounded (linear), and the date detector masks one only
 * next to a birth keyword, like any other date.
 */
import { linear } from '../linear';

// prettier-ignore
const ORDINAL_UNITS: Readonly<Record<string, number>> = {
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9,
};
// prettier-ignore
const ORDINALS: Readonly<Record<string, number>> = {
  ...ORDINAL_UNITS, tenth: 10, eleventh: 11, twelfth: 12, thirteenth: 13, fourteenth: 14,
  fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19, twentieth: 20,
  thirtieth: 30,
};
const UNIT = '(?:one|two|three|four|five|six|seven|eight|nine)';
const TEEN = '(?:ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)';
const TENS = '(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)';
/** A day: "fourth", "twenty-first", "twenty first", "thirty first". */
const DAY_WORD = `((?:twenty|thirty)[ -](?:${Object.keys(ORDINAL_UNITS).join('|')})|${Object.keys(ORDINALS).join('|')})`;
/** A year in words: "nineteen eighty five", "nineteen oh five", "two thousand (and) three". */
const YEAR_WORDS = `(?:nineteen[ -](?:${TENS}(?:[ -]${UNIT})?|${TEEN}|oh[ -]${UNIT}|hundred)|two[ -]thousand(?:[ -](?:and[ -])?(?:${TEEN}|${UNIT}|twenty(?:[ -]${UNIT})?))?)`;
const YEAR = `(?:\\d{4}|${YEAR_WORDS})`;
const MONTH =
  '(january|february|march|april|may|june|july|august|september|october|november|december)';
const GAP = '(?:[ \\t]{0,8}\\n[\\w -]{1,32}:[ \\t]{0,4}|\\s{1,8})';

/** "July fourth", "July the fourth, nineteen eighty five". */
export const MONTH_DAY_WORDS = linear(
  new RegExp(`\\b${MONTH}${GAP}(?:the${GAP})?${DAY_WORD}(?:,?${GAP}${YEAR})?(?![\\w-])`, 'gi'),
);
/** "the fourth of July", "fourth of July, 1985". */
export const DAY_WORDS_MONTH = linear(
  new RegExp(`\\b${DAY_WORD}${GAP}of${GAP}${MONTH}(?:,?${GAP}${YEAR})?(?![\\w-])`, 'gi'),
);

/** The day an ordinal word (or "twenty first") names. */
export function dayOfWords(words: string): number {
  const [first, second] = words.toLowerCase().split(/[ -]/);
  if (second === undefined) {
    return ORDINALS[first] ?? 0;
  }
  return (first === 'twenty' ? 20 : 30) + (ORDINAL_UNITS[second] ?? 0);
}
