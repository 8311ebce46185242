import { overlapLength, tailWordsForMs, words, wordTail } from './tail';

describe('tail helpers', () => {
  it('converts a tail in ms to words at 150 words a minute, rounding up to at least one', () => {
    expect(tailWordsForMs(200)).toBe(1); // the spec's default: half a word
    expect(tailWordsForMs(1)).toBe(1);
    expect(tailWordsForMs(3000)).toBe(8);
    expect(tailWordsForMs(3200)).toBe(8);
    expect(tailWordsForMs(4000)).toBe(10);
  });

  it('keeps whole last words only', () => {
    const ws = words('  the quick brown\tfox jumps\nover ');
    expect(wordTail(ws, 3, 100)).toBe('fox jumps over');
    expect(wordTail(ws, 10, 100)).toBe('the quick brown fox jumps over');
    expect(wordTail(ws, 0, 100)).toBe('');
  });

  it('drops leading words, never cuts one, to respect the character cap', () => {
    const ws = words('alpha beta gamma');
    expect(wordTail(ws, 3, 16)).toBe('alpha beta gamma');
    expect(wordTail(ws, 3, 15)).toBe('beta gamma');
    expect(wordTail(ws, 3, 4)).toBe('');
    expect(wordTail([`x${'y'.repeat(10_000)}`], 8, 256)).toBe('');
  });

  it('finds words a transcriber repeated from the previous tail (two or more)', () => {
    expect(overlapLength(words('my order number is'), words('number is ABC-12345'))).toBe(2);
    expect(overlapLength(words('I said no'), words('no no no'))).toBe(0);
    expect(overlapLength(words('My Order'), words('my order please'))).toBe(2);
    expect(overlapLength([], words('anything'))).toBe(0);
  });
});
