/**
 * Speech-transcript digit runs. ASR writes numbers one digit at a time ("5 5 5 0 1 9 9"),
 * spelled out ("four one one one …"), with "oh" for zero, "double five", "twenty one" or
 * "eight hundred". This module turns each such run into a digit string whose every digit
 * group remembers the span of text it came from, so a validator that accepts some digits
 * can mask exactly the words that spoke them.
 */

import { linear } from './linear';

/** Digits spoken by one word or numeral, with its `[start, end)` span in the text. */
export interface DigitToken {
  start: number;
  end: number;
  digits: string;
  /** True when a number word (not a numeral) contributed. */
  spoken: boolean;
}

/** A maximal run of adjacent digit tokens that reads like dictation. */
export interface DigitRun {
  tokens: DigitToken[];
}

// prettier-ignore
const UNIT_WORDS: Readonly<Record<string, string>> = {
  zero: '0', oh: '0', nought: '0', one: '1', two: '2', three: '3', four: '4', five: '5',
  six: '6', seven: '7', eight: '8', nine: '9', niner: '9',
};
// prettier-ignore
const TEEN_WORDS: Readonly<Record<string, string>> = {
  ten: '10', eleven: '11', twelve: '12', thirteen: '13', fourteen: '14', fifteen: '15',
  sixteen: '16', seventeen: '17', eighteen: '18', nineteen: '19',
};
// prettier-ignore
const TENS_WORDS: Readonly<Record<string, string>> = {
  twenty: '2', thirty: '3', forty: '4', fifty: '5', sixty: '6', seventy: '7', eighty: '8',
  ninety: '9',
};
const REPEAT_WORDS: Readonly<Record<string, number>> = { double: 2, triple: 3 };

const WORD = `(?:\\d{1,32}|${[
  ...Object.keys(UNIT_WORDS),
  ...Object.keys(TEEN_WORDS),
  ...Object.keys(TENS_WORDS),
  ...Object.keys(REPEAT_WORDS),
  'hundred',
].join('|')})`;
/** One alternation compiled once; `\b` on both sides keeps "often" or "tone" out. */
const TOKEN = linear(new RegExp(`\\b${WORD}\\b`, 'gi'));
/**
 * Two or more tokens with separator-and-filler gaps between them: a superset of the runs
 * {@link sameRun} accepts. Scanning for runs first means the many lone numbers of ordinary
 * text ("2 people at 5 pm") are rejected inside the regex engine without allocating a
 * match each. Gaps are bounded as {@link sameRun} bounds them ({@link MAX_GAP}).
 */
const CANDIDATE_RUN = linear(
  new RegExp(
    `\\b${WORD}\\b(?:[\\s,;.-]{1,24}(?:(?:uh{1,8}|um{1,8}|erm?|ah{1,8}|hm{2,8})[\\s,;.-]{1,24}){0,8}\\b${WORD}\\b)+`,
    'gi',
  ),
  'a dictated run has no length limit; token and gap classes are disjoint and the ' +
    'repetition never fails after its first token, so each character is read once',
);

/**
 * What may sit between two tokens of one run: spaces (a newline too, because transcript
 * windows are joined with whitespace), commas, semicolons, dashes, sentence stops and
 * fillers ("uh", "um"). A gap ending in `.` or `,` glues numerals ("1,299", "3.5"), which is
 * number formatting, not dictation.
 */
const GAP = /^[\s,;.-]*(?:(?:uh+|um+|erm?|ah+|hmm+)[\s,;.-]+)*$/i;
const GLUED = /[.,]$/;
const NUMERAL = /^\d+$/;
const SINGLE_NUMERAL = /^\d$/;
const MAX_GAP = 24;

interface RawToken {
  start: number;
  end: number;
  word: string;
}

function sameRun(text: string, prev: RawToken, next: RawToken): boolean {
  if (next.start - prev.end > MAX_GAP) {
    return false;
  }
  const gap = text.slice(prev.end, next.start);
  return gap.length > 0 && GAP.test(gap) && !GLUED.test(gap);
}

/** A single-digit unit word or numeral, which is what "double"/"triple" and tens can join. */
function unitDigit(token: RawToken | undefined): string | undefined {
  if (!token) {
    return undefined;
  }
  return SINGLE_NUMERAL.test(token.word) ? token.word : UNIT_WORDS[token.word];
}

/**
 * Converts one run of raw tokens into digit tokens. A word that cannot join its
 * neighbours ("hundred" with nothing before it, "double" with nothing after) splits the
 * run, so the result may be several runs.
 */
function normalise(raw: RawToken[]): DigitToken[][] {
  const runs: DigitToken[][] = [];
  let current: DigitToken[] = [];
  const split = (): void => {
    if (current.length > 0) {
      runs.push(current);
    }
    current = [];
  };
  for (let i = 0; i < raw.length; i++) {
    const t = raw[i];
    const w = t.word;
    if (NUMERAL.test(w)) {
      current.push({ start: t.start, end: t.end, digits: w, spoken: false });
    } else if (w in UNIT_WORDS) {
      current.push({ start: t.start, end: t.end, digits: UNIT_WORDS[w], spoken: true });
    } else if (w in TEEN_WORDS) {
      current.push({ start: t.start, end: t.end, digits: TEEN_WORDS[w], spoken: true });
    } else if (w in TENS_WORDS) {
      // "twenty one" is 21; "twenty" alone is 20. "twenty oh" is not a thing, so zero stays out.
      const unit = unitDigit(raw[i + 1]);
      const joins = unit !== undefined && unit !== '0' && !NUMERAL.test(raw[i + 1].word);
      const end = joins ? raw[i + 1].end : t.end;
      current.push({
        start: t.start,
        end,
        digits: TENS_WORDS[w] + (joins ? unit : '0'),
        spoken: true,
      });
      i += joins ? 1 : 0;
    } else if (w in REPEAT_WORDS) {
      const unit = unitDigit(raw[i + 1]);
      if (unit === undefined) {
        split();
        continue;
      }
      current.push({
        start: t.start,
        end: raw[i + 1].end,
        digits: unit.repeat(REPEAT_WORDS[w]),
        spoken: true,
      });
      i += 1;
    } else {
      // "hundred": "eight hundred" is 800; anything else ends the run.
      const last = current[current.length - 1];
      if (last?.spoken && last.digits.length === 1) {
        last.digits += '00';
        last.end = t.end;
      } else {
        split();
      }
    }
  }
  split();
  return runs;
}

/**
 * Dictation, as opposed to written numbers: at least one number word, or at least three
 * single-digit numerals ("5 5 5 0 1 9 9"). Written groupings such as "4111 1111 …" or
 * "415 555 0134" are left to the written-form detectors, which know their layouts.
 */
function isDictation(run: DigitToken[]): boolean {
  let singles = 0;
  for (const t of run) {
    if (t.spoken) {
      return true;
    }
    singles += t.digits.length === 1 ? 1 : 0;
  }
  return singles >= 3;
}

/**
 * Finds every dictated digit run in `text`. Runs with fewer than `minDigits` digits are
 * dropped, since no validator can accept them.
 */
export function findDigitRuns(text: string, minDigits = 7): DigitRun[] {
  const result: DigitRun[] = [];
  let group: RawToken[] = [];
  const flush = (): void => {
    // A lone token is a numeral (written, not dictated) or one word (two digits at most).
    if (group.length > 1) {
      for (const tokens of normalise(group)) {
        const count = tokens.reduce((n, t) => n + t.digits.length, 0);
        if (count >= minDigits && isDictation(tokens)) {
          result.push({ tokens });
        }
      }
    }
    group = [];
  };
  for (const run of text.matchAll(CANDIDATE_RUN)) {
    const runEnd = run.index + run[0].length;
    TOKEN.lastIndex = run.index;
    let m: RegExpExecArray | null;
    while ((m = TOKEN.exec(text)) !== null && m.index < runEnd) {
      const token = { start: m.index, end: m.index + m[0].length, word: m[0].toLowerCase() };
      const prev = group[group.length - 1];
      if (prev && !sameRun(text, prev, token)) {
        flush();
      }
      group.push(token);
    }
    flush();
  }
  return result;
}
