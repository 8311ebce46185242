import fc from 'fast-check';

import { TokenCounter } from '../tokenizer/token-counter';
import { truncateToTokens } from './truncate';

const counter = new TokenCounter();

const text =
  'The customer asked about a refund for order ABC-12345. The agent said refunds take five days. ' +
  'The customer then asked whether the store in Corte Madera was open on Sundays.';

describe('truncateToTokens', () => {
  it('returns the text untouched when it fits', () => {
    const sut = truncateToTokens(text, 500, counter);
    expect(sut).toEqual({ text, truncated: false, tokens: counter.count(text), atSentence: true });
  });

  it('cuts after the last whole sentence that fits, keeping the start', () => {
    const twoSentences =
      'The customer asked about a refund for order ABC-12345. The agent said refunds take five days.';
    const budget = counter.count(twoSentences) + 3; // not enough for the third sentence
    const sut = truncateToTokens(text, budget, counter);
    expect(sut).toMatchObject({ text: twoSentences, truncated: true, atSentence: true });
    expect(sut.tokens).toBe(counter.count(sut.text));
  });

  it('falls back to a word boundary when no sentence fits', () => {
    const sut = truncateToTokens(text, 6, counter);
    expect(sut.truncated).toBe(true);
    expect(sut.atSentence).toBe(false);
    expect(text.startsWith(sut.text)).toBe(true);
    expect(text[sut.text.length]).toBe(' ');
    expect(counter.count(sut.text)).toBeLessThanOrEqual(6);
  });

  it('prefers a word cut when the sentence cut would keep under half as much', () => {
    const long = `Hi. ${'then we talked about the delivery window and the courier '.repeat(5)}`;
    const sut = truncateToTokens(long, 40, counter);
    expect(sut.atSentence).toBe(false);
    expect(sut.tokens).toBeGreaterThan(30);
  });

  it('keeps the end at a sentence start with keep=end', () => {
    const sut = truncateToTokens(text, 22, counter, 'end');
    expect(sut.text).toBe(
      'The customer then asked whether the store in Corte Madera was open on Sundays.',
    );
    expect(sut.atSentence).toBe(true);
  });

  it('returns empty when not even one word fits, and for budget 0', () => {
    expect(truncateToTokens('Supercalifragilisticexpialidocious is long', 1, counter).text).toBe(
      '',
    );
    expect(truncateToTokens(text, 0, counter)).toMatchObject({
      text: '',
      truncated: true,
      tokens: 0,
    });
  });

  it('never exceeds the budget and never cuts inside a word (property)', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9-]{1,12}[.!?]?$/);
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 60 }),
        fc.integer({ min: 0, max: 80 }),
        fc.constantFrom<'start' | 'end'>('start', 'end'),
        (ws, budget, keep) => {
          const input = ws.join(' ');
          const sut = truncateToTokens(input, budget, counter, keep);
          expect(counter.count(sut.text)).toBeLessThanOrEqual(budget);
          expect(sut.tokens).toBe(counter.count(sut.text));
          if (sut.text.length > 0) {
            const kept = sut.text.split(' ');
            const expected = keep === 'start' ? ws.slice(0, kept.length) : ws.slice(-kept.length);
            expect(kept).toEqual(expected);
          }
        },
      ),
      { numRuns: 150 },
    );
  });
});
