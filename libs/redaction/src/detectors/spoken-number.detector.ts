import { BASE_CONFIDENCE } from '../entity-types';
import { findDigitRuns } from '../spoken-digits';
import { isCardNumber } from './credit-card.detector';
import { type Detection, type DetectorOptions, hasContext, NON_PHONE_LABEL } from './detector';
import { isDictatedPhone } from './phone.detector';
import { isSsn } from './ssn.detector';

/**
 * Dictation is weaker evidence than a printed layout, so spoken detections score a little
 * lower and lose ties against a written detection of the same length.
 */
const SPOKEN_PENALTY = 0.05;
const CARD_SCORE = BASE_CONFIDENCE.CREDIT_CARD - SPOKEN_PENALTY;
const SSN_SCORE = BASE_CONFIDENCE.US_SSN - SPOKEN_PENALTY;
const PHONE_SCORE = BASE_CONFIDENCE.PHONE - SPOKEN_PENALTY;

/**
 * Card numbers, SSNs and phone numbers read out digit by digit. Every dictated run is
 * normalised to digits, and every contiguous window of its tokens is validated, because
 * transcripts rarely punctuate where one number ends: "… one one one one one two two five"
 * is a card followed by its expiry. Overlap resolution then keeps the longest valid window.
 * Per start token only the longest valid window of each type is reported, which keeps the
 * candidate count linear in the run length; digits that a lost overlap leaves unmasked
 * form a new run in the redactor's second pass and are validated again there.
 */
export function detectSpokenNumbers(
  text: string,
  options: DetectorOptions,
  out: Detection[],
): void {
  const wantCard = options.enabled.has('CREDIT_CARD');
  const wantSsn = options.enabled.has('US_SSN');
  const wantPhone = options.enabled.has('PHONE');
  for (const { tokens } of findDigitRuns(text)) {
    const runStart = tokens[0].start;
    const phoneAllowed = wantPhone && !hasContext(text, runStart, runStart, NON_PHONE_LABEL, 32);
    // The run's digits once, with each token's offset into them; validators take ranges.
    const all = tokens.map((t) => t.digits).join('');
    const offsets = [0];
    for (const t of tokens) {
      offsets.push(offsets[offsets.length - 1] + t.digits.length);
    }
    for (let i = 0; i < tokens.length; i++) {
      const start = tokens[i].start;
      let card = -1;
      let ssn = -1;
      let phone = -1;
      for (let j = i; j < tokens.length; j++) {
        const length = offsets[j + 1] - offsets[i];
        if (length > 19) {
          break;
        }
        if (length < 7) {
          continue;
        }
        const from = offsets[i];
        const to = offsets[j + 1];
        if (wantCard && length >= 13 && isCardNumber(all, from, to)) {
          card = tokens[j].end;
        }
        if (wantSsn && length === 9 && isSsn(all, from, to)) {
          ssn = tokens[j].end;
        }
        if (phoneAllowed && length <= 15 && isDictatedPhone(all, options.phoneRegions, from, to)) {
          phone = tokens[j].end;
        }
      }
      if (card > 0) {
        out.push({ type: 'CREDIT_CARD', start, end: card, score: CARD_SCORE });
      }
      if (ssn > 0) {
        out.push({ type: 'US_SSN', start, end: ssn, score: SSN_SCORE });
      }
      if (phone > 0) {
        out.push({ type: 'PHONE', start, end: phone, score: PHONE_SCORE });
      }
    }
  }
}
