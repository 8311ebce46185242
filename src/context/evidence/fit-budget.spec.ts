import { fitToBudget } from './fit-budget';
import { DEFAULT_EVIDENCE_OPTIONS, selectEvidence } from './select-evidence';

const trim = DEFAULT_EVIDENCE_OPTIONS.trim!;
const senders = new Set(['a', 'b']);
/** One token per word: easy to reason about. */
const count = (text: string) => text.split(/\s+/).filter(Boolean).length;

/** A six-turn excerpt of `words` words per turn; turn `match` (if any) says "parcel". */
const excerpt = (tag: string, words: number, match?: number) => ({
  content: Array.from(
    { length: 6 },
    (_, i) => `${i % 2 ? 'b' : 'a'}: ${i === match ? 'parcel' : tag}${' w'.repeat(words - 2)}`,
  ).join('\n'),
  trimmed: false,
});

describe('fitToBudget', () => {
  it('keeps everything whole when it fits', () => {
    const list = [excerpt('x', 10, 1), excerpt('y', 10, 2)];
    expect(fitToBudget('parcel', list, trim, senders, { maxTokens: 1000, count })).toEqual([]);
    expect(list.every((e) => !e.trimmed)).toBe(true);
  });

  it('never trims a better excerpt to make room for a lower one', () => {
    // 66 tokens each whole (a newline each); cores of 3 turns, 33. Budget 100: the best stays
    // whole, the second gets its core; the third has no room and goes to the budget whole
    // (to be cut into what is left), nobody above it trimmed for it.
    const list = [excerpt('x', 10, 2), excerpt('y', 10, 2), excerpt('z', 10, 2)];
    const left = fitToBudget('parcel', list, trim, senders, { maxTokens: 100, count });
    expect(list.map((e) => e.trimmed)).toEqual([false, true, false]);
    expect(left).toEqual([]);
  });

  it("gives the best's peers (scoring within peerShare of it) their cores before it grows", () => {
    // A list question: three excerpts scoring alike each hold one answer. Cores (33 each)
    // all fit in 100; growing the best first (66 whole) left no room for the third's answer.
    const scored = (score: number, tag: string) => ({ ...excerpt(tag, 10, 2), score });
    const list = [scored(1, 'x'), scored(0.9, 'y'), scored(0.8, 'z')];
    const left = fitToBudget('parcel', list, trim, senders, { maxTokens: 100, count });
    expect(trim.peerShare).toBeLessThan(0.8);
    expect(left).toEqual([]);
    expect(list.map((e) => e.trimmed)).toEqual([true, true, true]);
    expect(list.every((e) => e.content.includes('parcel'))).toBe(true);
  });

  it('lets a best that stands out grow first, as before', () => {
    const scored = (score: number, tag: string) => ({ ...excerpt(tag, 10, 2), score });
    const list = [scored(1, 'x'), scored(0.3, 'y'), scored(0.2, 'z')];
    const left = fitToBudget('parcel', list, trim, senders, { maxTokens: 100, count });
    expect(list.map((e) => e.trimmed)).toEqual([false, true, false]);
    expect(left).toEqual([]);
  });

  it('reads hostile scores as no peers (NaN, infinities, missing)', () => {
    for (const [best, next] of [
      [Number.NaN, 1],
      [Number.POSITIVE_INFINITY, 1],
      [1, Number.NaN],
      [undefined, 1],
    ]) {
      const list = [
        { ...excerpt('x', 10, 2), score: best },
        { ...excerpt('y', 10, 2), score: next },
        { ...excerpt('z', 10, 2), score: 0.9 },
      ];
      fitToBudget('parcel', list, trim, senders, { maxTokens: 100, count });
      expect(list[0].trimmed).toBe(false);
    }
  });

  it('skips an excerpt that cannot fit and gives its room to the next, smaller one', () => {
    // The second has no matching turn (nothing says which turns answer): whole or nothing.
    const list = [excerpt('x', 10, 2), excerpt('big', 20), excerpt('small', 3)];
    const left = fitToBudget('parcel', list, trim, senders, { maxTokens: 90, count });
    expect(left).toEqual([1]);
    expect(list[2].trimmed).toBe(false);
  });

  it('keeps the best excerpt even when nothing fits (the budget cuts it down)', () => {
    const list = [excerpt('x', 50), excerpt('y', 5), excerpt('z', 5)];
    expect(fitToBudget('parcel', list, trim, senders, { maxTokens: 20, count })).toEqual([2]);
    expect(list[0].content).toBe(excerpt('x', 50).content);
  });

  it('without a budget trims every long excerpt that matches', () => {
    const list = [excerpt('x', 4, 0), excerpt('y', 4)];
    expect(fitToBudget('parcel', list, trim, senders, undefined)).toEqual([]);
    expect(list.map((e) => e.trimmed)).toEqual([true, false]);
  });
});

describe('selectEvidence under a budget', () => {
  it('leaves out an excerpt with no room as a `budget` drop and fills with the next one', () => {
    const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
    const windows = [excerpt('x', 10, 2), excerpt('big', 20), excerpt('small', 3)].map((e, i) => ({
      ...e,
      id: `w${i}`,
      conversation_uid: `c${i}`,
      score: 1 - i / 10,
      occurred_at: at,
    }));
    const sut = selectEvidence(
      'parcel',
      windows,
      { ...DEFAULT_EVIDENCE_OPTIONS, baseK: 3, maxK: 3 },
      { maxTokens: 90, count },
    );
    expect(sut.excerpts.map((e) => [e.window.id, e.trimmed])).toEqual([
      ['w0', false],
      ['w2', false],
    ]);
    expect(sut.overBudget).toBe(1);
    expect(sut.dropped.get('w1')).toEqual({ reason: 'budget' });
  });
});
