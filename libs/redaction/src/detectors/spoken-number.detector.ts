import { BASE_CONFIDENCE } from '../entity-types';
import {
  DictationCheck,
  type DigitRunSink,
  type DigitToken,
  scanDigitRuns,
} from '../spoken-digits';
import { isCardNumber } from './credit-card.detector';
import { type Detection, type DetectorOptions, hasContext, NON_PHONE_LABEL } from './detector';
import { dictatedPhoneLengths, isDictatedPhone } from './phone.detector';
import { isSsn } from './ssn.detector';

/**
 * Dictation is weaker evidence than a printed layout, so spoken detections score a little
 * lower and lose ties against a written detection of the same length.
 */
const SPOKEN_PENALTY = 0.05;
const CARD_SCORE = BASE_CONFIDENCE.CREDIT_CARD - SPOKEN_PENALTY;
const SSN_SCORE = BASE_CONFIDENCE.US_SSN - SPOKEN_PENALTY;
const PHONE_SCORE = BASE_CONFIDENCE.PHONE - SPOKEN_PENALTY;

/** The most digits any validated number has (a 19-digit card). */
const MAX_DIGITS = 19;

/**
 * Card numbers, SSNs and phone numbers read out digit by digit. Every dictated run is
 * normalised to digits, and every contiguous window of its tokens is validated, because
 * transcripts rarely punctuate where one number ends: "… one one one one one two two five"
 * is a card followed by its expiry. Overlap resolution then keeps the longest valid window.
 * Per start token only the longest valid window of each type is reported, which keeps the
 * candidate count linear in the run length; digits that a lost overlap leaves unmasked
 * form a new run in the redactor's second pass and are validated again there.
 *
 * Streaming: tokens are validated in batches, each token once the tokens after it hold more
 * than {@link MAX_DIGITS} digits, and only the unsettled ones are kept, so a run of any
 * length costs constant memory and its garbage dies young.
 */
export function detectSpokenNumbers(
  text: string,
  options: DetectorOptions,
  out: Detection[],
): void {
  scanDigitRuns(text, new SpokenWindows(text, options, out));
}

/** Tokens read before their windows are validated together (bounds the memory of a run). */
const BATCH = 128;
/**
 * At most this many digits said before a validated number, in the same run, belong to it: a
 * trunk "zero" or a country code ("zero six one two …", "plus four four two zero …") that
 * the validators, which know only the configured regions, leave outside the number.
 */
const MAX_LEAD_DIGITS = 3;
const LEAD_PENALTY = 0.2;
/** A spoken or written "+" right before a run: the number's international prefix. */
const PLUS_BEFORE = /(?:\bplus|\+)[ \t]{0,3}$/i;

class SpokenWindows implements DigitRunSink {
  private readonly wantCard: boolean;
  private readonly wantSsn: boolean;
  private readonly wantPhone: boolean;
  private readonly phoneLength: (length: number) => boolean;
  /** The run's tokens whose windows are not validated yet. */
  private tokens: DigitToken[] = [];
  private phoneAllowed: boolean | undefined;
  private readonly dictation = new DictationCheck();
  /** Detections of a run not yet known to be dictation. */
  private held: Detection[] = [];
  /** Where the run's first token starts, and how many digits earlier batches settled. */
  private runStart = -1;
  private settledDigits = 0;

  constructor(
    private readonly text: string,
    private readonly options: DetectorOptions,
    private readonly out: Detection[],
  ) {
    this.wantCard = options.enabled.has('CREDIT_CARD');
    this.wantSsn = options.enabled.has('US_SSN');
    this.wantPhone = options.enabled.has('PHONE');
    this.phoneLength = dictatedPhoneLengths(options.phoneRegions);
  }

  token(t: DigitToken): void {
    if (this.phoneAllowed === undefined) {
      this.phoneAllowed =
        this.wantPhone && !hasContext(this.text, t.start, t.start, NON_PHONE_LABEL, 32);
    }
    if (!this.dictation.yes && this.dictation.see(t)) {
      for (const d of this.held) {
        this.out.push(d);
      }
      this.held = [];
    }
    if (this.runStart < 0) {
      this.runStart = t.start;
    }
    this.tokens.push(t);
    if (this.tokens.length >= BATCH) {
      this.settle(false);
    }
  }

  end(): void {
    this.settle(true);
    this.tokens = [];
    this.phoneAllowed = undefined;
    this.dictation.reset();
    this.held = [];
    this.runStart = -1;
    this.settledDigits = 0;
  }

  /**
   * Validates the windows of every token whose later tokens already hold more digits than
   * any number has (every token at the run's end), and keeps only the others.
   */
  private settle(final: boolean): void {
    const tokens = this.tokens;
    // The batch's digits as one flat string, with each token's offset into it.
    const offsets = new Array<number>(tokens.length + 1);
    offsets[0] = 0;
    for (let k = 0; k < tokens.length; k++) {
      offsets[k + 1] = offsets[k] + tokens[k].digits.length;
    }
    const digits = tokens.map((t) => t.digits).join('');
    const total = offsets[tokens.length];
    let i = 0;
    for (; i < tokens.length && (final || total - offsets[i + 1] > MAX_DIGITS); i++) {
      this.validate(tokens, offsets, digits, i);
    }
    this.settledDigits += offsets[i];
    this.tokens = tokens.slice(i);
  }

  /** The longest valid window of each type starting at token `i`. */
  private validate(
    tokens: readonly DigitToken[],
    offsets: readonly number[],
    digits: string,
    i: number,
  ): void {
    const from = offsets[i];
    let card = -1;
    let ssn = -1;
    let phone = -1;
    for (let j = i; j < tokens.length; j++) {
      const to = offsets[j + 1];
      const length = to - from;
      if (length > MAX_DIGITS) {
        break;
      }
      if (length < 7) {
        continue;
      }
      if (this.wantCard && length >= 13 && isCardNumber(digits, from, to)) {
        card = tokens[j].end;
      }
      if (this.wantSsn && length === 9 && isSsn(digits, from, to)) {
        ssn = tokens[j].end;
      }
      if (
        this.phoneAllowed &&
        length <= 15 &&
        this.phoneLength(length) &&
        isDictatedPhone(digits, this.options.phoneRegions, from, to)
      ) {
        phone = tokens[j].end;
      }
    }
    const lead = this.settledDigits + from;
    const start = this.leadStart(tokens[i].start, lead);
    // Widened over lead digits, a window loses ties: a number validated whole names the type.
    const lower = lead > 0 && lead <= MAX_LEAD_DIGITS ? LEAD_PENALTY : 0;
    if (card > 0) {
      this.emit({ type: 'CREDIT_CARD', start, end: card, score: CARD_SCORE - lower });
    }
    if (ssn > 0) {
      this.emit({ type: 'US_SSN', start, end: ssn, score: SSN_SCORE - lower });
    }
    if (phone > 0) {
      this.emit({ type: 'PHONE', start, end: phone, score: PHONE_SCORE - lower });
    }
  }

  /**
   * Where a number found at `start`, after `lead` digits of its run, starts: at the run's
   * start when the lead is a trunk or country code ({@link MAX_LEAD_DIGITS}), and before a
   * "plus" or "+" that opens the run.
   */
  private leadStart(start: number, lead: number): number {
    if (lead > MAX_LEAD_DIGITS) {
      return start;
    }
    const runStart = this.runStart;
    const plus = PLUS_BEFORE.exec(this.text.slice(Math.max(0, runStart - 8), runStart));
    return plus ? runStart - plus[0].length : runStart;
  }

  private emit(d: Detection): void {
    (this.dictation.yes ? this.out : this.held).push(d);
  }
}
