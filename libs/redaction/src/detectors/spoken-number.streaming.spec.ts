import fc from 'fast-check';

import { ENTITY_TYPES } from '../entity-types';
import { type DigitToken, findDigitRuns, scanDigitRuns } from '../spoken-digits';
import { isCardNumber } from './credit-card.detector';
import type { Detection, DetectorOptions } from './detector';
import { hasContext, NON_PHONE_LABEL } from './detector';
import { isDictatedPhone } from './phone.detector';
import { detectSpokenNumbers } from './spoken-number.detector';
import { isSsn } from './ssn.detector';

const OPTIONS: DetectorOptions = { enabled: new Set(ENTITY_TYPES), phoneRegions: ['US'] };

/**
 * The detector as it was before it streamed: whole runs collected first, then every
 * window of every start token validated; a window after at most three digits of its run (a
 * trunk "zero", a country code) starts with the run, and a "plus" before the run with it.
 * The oracle the streaming detector must match.
 */
function wholeRuns(text: string): Detection[] {
  const out: Detection[] = [];
  for (const { tokens } of findDigitRuns(text)) {
    const phoneAllowed = !hasContext(text, tokens[0].start, tokens[0].start, NON_PHONE_LABEL, 32);
    const all = tokens.map((t) => t.digits).join('');
    const offsets = [0];
    for (const t of tokens) {
      offsets.push(offsets[offsets.length - 1] + t.digits.length);
    }
    for (let i = 0; i < tokens.length; i++) {
      const found: Partial<Record<'CREDIT_CARD' | 'US_SSN' | 'PHONE', number>> = {};
      for (let j = i; j < tokens.length && offsets[j + 1] - offsets[i] <= 19; j++) {
        const [from, to] = [offsets[i], offsets[j + 1]];
        if (to - from >= 13 && isCardNumber(all, from, to)) {
          found.CREDIT_CARD = tokens[j].end;
        }
        if (to - from === 9 && isSsn(all, from, to)) {
          found.US_SSN = tokens[j].end;
        }
        if (phoneAllowed && to - from >= 7 && to - from <= 15) {
          if (isDictatedPhone(all, ['US'], from, to)) {
            found.PHONE = tokens[j].end;
          }
        }
      }
      const plus = /(?:\bplus|\+)[ \t]{0,3}$/i.exec(text.slice(0, tokens[0].start));
      const runStart = tokens[0].start - (plus ? plus[0].length : 0);
      const start = offsets[i] <= 3 ? runStart : tokens[i].start;
      for (const [type, end] of Object.entries(found)) {
        out.push({ type: type as Detection['type'], start, end, score: 0 });
      }
    }
  }
  return out;
}

const spans = (ds: readonly Detection[]): string[] =>
  ds.map((d) => `${d.type}@${d.start}-${d.end}`).sort();

describe('spoken numbers, streamed', () => {
  it('finds what validating whole runs finds, on generated dictation', () => {
    const word = fc.constantFrom(
      ...['zero', 'oh', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'],
      ...['twenty', 'ninety', 'fifteen', 'double', 'triple', 'hundred', '4', '5', '0', '41', '555'],
    );
    const gap = fc.constantFrom(' ', ' ', ' ', ', ', ' uh ', '\n', '. ', ' and ', ' order number ');
    const text = fc
      .array(fc.tuple(word, gap), { minLength: 1, maxLength: 400 })
      .map((parts) => `call ${parts.map(([w, g]) => w + g).join('')}`);
    fc.assert(
      fc.property(text, (t) => {
        const out: Detection[] = [];
        detectSpokenNumbers(t, OPTIONS, out);
        expect(spans(out)).toEqual(spans(wholeRuns(t)));
      }),
      { numRuns: 200 },
    );
  });

  it('hands each run over token by token, ending it once', () => {
    const events: string[] = [];
    scanDigitRuns('say five five five oh one nine nine, eight hundred two two then one two', {
      token: (t: DigitToken) => events.push(t.digits),
      end: () => events.push('|'),
    });
    expect(events).toEqual([
      '5',
      '5',
      '5',
      '0',
      '1',
      '9',
      '9',
      '800',
      '2',
      '2',
      '|',
      '1',
      '2',
      '|',
    ]);
  });

  it('validates a run of 30,000 spoken digits token by token, keeping every detection', () => {
    const text = `my card is ${'four one one one one one one one one one one one one one one one '.repeat(1875)}`;
    const out: Detection[] = [];
    detectSpokenNumbers(text, OPTIONS, out);
    expect(spans(out)).toEqual(spans(wholeRuns(text)));
    expect(out.filter((d) => d.type === 'CREDIT_CARD').length).toBeGreaterThan(1000);
  });
});
