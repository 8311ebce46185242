/**
 * Speech-transcript digit runs. ASR writes numbers one digit at a time ("5 5 5 0 1 9 9"),
 * spelled out ("four one one one …"), with "oh" for zero, "double five", "twenty one" or
 * "eight hundred". This module turns each such run into a digit string whose every digit
 * group remembers the span of text it came from, so a validator that accepts some digits
 * can mask exactly the words that spoke them.
 */

import { allMatches } from './all-matches';
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

/** Receives the digit tokens of each candidate run as the text is read. */
export interface DigitRunSink {
  /** The next token of the current run. */
  token(token: DigitToken): void;
  /** The current run ended; called only after at least one token. */
  end(): void;
}

/**
 * Converts raw tokens into digit tokens as they arrive, holding back one raw token (tens
 * and "double" join the next) and one digit token ("hundred" extends the previous), so a
 * run of any length costs constant memory. A word that cannot join its neighbours
 * ("hundred" with nothing before it, "double" with nothing after) ends the run.
 */
class RunReader {
  /** A raw token waiting for its successor. */
  private raw: RawToken | undefined;
  private rawInGroup = 0;
  /** The run's latest digit token, still open to "hundred". */
  private held: DigitToken | undefined;
  private open = false;

  constructor(private readonly sink: DigitRunSink) {}

  /** The next raw token of the current group (tokens joined by {@link sameRun}). */
  push(token: RawToken): void {
    this.rawInGroup++;
    if (this.raw && this.convert(this.raw, token)) {
      this.raw = undefined; // `token` was joined to its predecessor
    } else {
      this.raw = token;
    }
  }

  /** The group ended. A lone token is a numeral (written, not dictated) or one word. */
  endGroup(): void {
    if (this.raw && this.rawInGroup > 1) {
      this.convert(this.raw, undefined);
    }
    this.raw = undefined;
    this.rawInGroup = 0;
    this.split();
  }

  /** Converts `t`; returns whether it consumed `next` too. */
  private convert(t: RawToken, next: RawToken | undefined): boolean {
    const w = t.word;
    if (NUMERAL.test(w)) {
      this.emit(t.start, t.end, w, false);
    } else if (w in UNIT_WORDS) {
      this.emit(t.start, t.end, UNIT_WORDS[w], true);
    } else if (w in TEEN_WORDS) {
      this.emit(t.start, t.end, TEEN_WORDS[w], true);
    } else if (w in TENS_WORDS) {
      // "twenty one" is 21; "twenty" alone is 20. "twenty oh" is not a thing, so zero stays out.
      const unit = unitDigit(next);
      const joins = unit !== undefined && unit !== '0' && !NUMERAL.test(next!.word);
      this.emit(t.start, joins ? next!.end : t.end, TENS_WORDS[w] + (joins ? unit : '0'), true);
      return joins;
    } else if (w in REPEAT_WORDS) {
      const unit = unitDigit(next);
      if (unit === undefined) {
        this.split();
        return false;
      }
      this.emit(t.start, next!.end, unit.repeat(REPEAT_WORDS[w]), true);
      return true;
    } else if (this.held?.spoken && this.held.digits.length === 1) {
      // "hundred": "eight hundred" is 800; anything else ends the run.
      this.held.digits += '00';
      this.held.end = t.end;
    } else {
      this.split();
    }
    return false;
  }

  private emit(start: number, end: number, digits: string, spoken: boolean): void {
    if (this.held) {
      this.sink.token(this.held);
      this.open = true;
    }
    this.held = { start, end, digits, spoken };
  }

  private split(): void {
    if (this.held) {
      this.sink.token(this.held);
      this.open = true;
      this.held = undefined;
    }
    if (this.open) {
      this.sink.end();
      this.open = false;
    }
  }
}

/**
 * Dictation, as opposed to written numbers: at least one number word, or at least three
 * single-digit numerals ("5 5 5 0 1 9 9"). Written groupings such as "4111 1111 …" or
 * "415 555 0134" are left to the written-form detectors, which know their layouts.
 * Fed token by token, so a streaming reader knows as soon as a run qualifies.
 */
export class DictationCheck {
  private singles = 0;
  /** Whether the tokens seen so far make the run dictation. */
  yes = false;

  see(t: DigitToken): boolean {
    this.singles += t.digits.length === 1 ? 1 : 0;
    this.yes ||= t.spoken || this.singles >= 3;
    return this.yes;
  }

  reset(): void {
    this.singles = 0;
    this.yes = false;
  }
}

/**
 * Reads every candidate run of `text` into `sink`, token by token: the runs are not
 * checked for dictation or length (the sink decides), and nothing but the current token
 * is kept, so memory stays constant however long a run is.
 */
export function scanDigitRuns(text: string, sink: DigitRunSink): void {
  const reader = new RunReader(sink);
  for (const run of allMatches(CANDIDATE_RUN, text)) {
    const runEnd = run.index + run[0].length;
    TOKEN.lastIndex = run.index;
    let prev: RawToken | undefined;
    let m: RegExpExecArray | null;
    while ((m = TOKEN.exec(text)) !== null && m.index < runEnd) {
      const token = { start: m.index, end: m.index + m[0].length, word: m[0].toLowerCase() };
      if (prev && !sameRun(text, prev, token)) {
        reader.endGroup();
      }
      reader.push(token);
      prev = token;
    }
    reader.endGroup();
  }
}

/**
 * Finds every dictated digit run in `text`. Runs with fewer than `minDigits` digits are
 * dropped, since no validator can accept them.
 */
export function findDigitRuns(text: string, minDigits = 7): DigitRun[] {
  const result: DigitRun[] = [];
  let tokens: DigitToken[] = [];
  let count = 0;
  const dictation = new DictationCheck();
  scanDigitRuns(text, {
    token(t) {
      tokens.push(t);
      count += t.digits.length;
      dictation.see(t);
    },
    end() {
      if (count >= minDigits && dictation.yes) {
        result.push({ tokens });
      }
      tokens = [];
      count = 0;
      dictation.reset();
    },
  });
  return result;
}
