import fc from 'fast-check';

import { TokenCounter } from '../tokenizer/token-counter';
import { enforceBudget } from './enforce-budget';

const counter = new TokenCounter();

interface Hit {
  id: string;
  content: string;
  rerank_score: number;
  channel: string;
  truncated?: boolean;
}

const sentence = (topic: string, n: number): string =>
  Array.from(
    { length: n },
    (_, i) => `The customer mentioned ${topic} detail number ${i + 1}.`,
  ).join(' ');

const hit = (id: string, score: number, content: string): Hit => ({
  id,
  content,
  rerank_score: score,
  channel: 'sms',
});

const recount = (hits: readonly Hit[]): number =>
  hits.reduce((sum, h) => sum + counter.count(h.content), 0);

describe('enforceBudget', () => {
  const a = hit('a', 0.9, sentence('refund', 4));
  const b = hit('b', 0.7, sentence('delivery', 10));
  const c = hit('c', 0.4, sentence('warranty', 4));

  it('returns excerpts already under budget unchanged, sorted by rerank score', () => {
    const sut = enforceBudget([c, a, b], 10_000, counter);
    expect(sut.excerpts).toEqual([a, b, c]);
    expect(sut.excerpts[0]).toBe(a); // same objects: nothing copied or marked
    expect(sut.excerpts.some((e) => 'truncated' in e)).toBe(false);
    expect(sut).toMatchObject({ dropped: 0, token_count: recount([a, b, c]) });
  });

  it('drops the lowest-scored excerpts first when the total is over budget', () => {
    const budget = counter.count(a.content) + counter.count(b.content); // exactly two fit
    const sut = enforceBudget([c, b, a], budget, counter);
    expect(sut.excerpts.map((e) => e.id)).toEqual(['a', 'b']);
    expect(sut.dropped).toBe(1);
    expect(sut.token_count).toBe(budget);
  });

  it('truncates the next excerpt at a sentence boundary into the space left, marked truncated', () => {
    const budget = counter.count(a.content) + 40;
    const sut = enforceBudget([a, b, c], budget, counter);
    expect(sut.excerpts.map((e) => e.id)).toEqual(['a', 'b']);
    const cut = sut.excerpts[1];
    expect(cut.truncated).toBe(true);
    expect(cut.content).toMatch(/\.$/);
    expect(b.content.startsWith(cut.content)).toBe(true);
    expect(cut.content.length).toBeLessThan(b.content.length);
    expect(b.truncated).toBeUndefined(); // input not mutated
    expect(sut.dropped).toBe(1);
    expect(sut.token_count).toBeLessThanOrEqual(budget);
  });

  it('does not keep a fragment smaller than the minimum after a whole excerpt', () => {
    const budget = counter.count(a.content) + 20;
    const sut = enforceBudget([a, b], budget, counter);
    expect(sut.excerpts).toEqual([a]);
    expect(
      enforceBudget([a, b], budget, counter, { minTruncatedTokens: 10 }).excerpts,
    ).toHaveLength(2);
  });

  it('truncates the best excerpt even into a tiny budget rather than returning nothing', () => {
    const sut = enforceBudget([b, a], 12, counter);
    expect(sut.excerpts).toHaveLength(1);
    expect(sut.excerpts[0]).toMatchObject({ id: 'a', truncated: true });
    expect(sut.token_count).toBeLessThanOrEqual(12);
    expect(sut.dropped).toBe(1);
  });

  it('returns nothing for budget 0 or a negative budget', () => {
    for (const budget of [0, -5]) {
      expect(enforceBudget([a, b, c], budget, counter)).toEqual({
        excerpts: [],
        token_count: 0,
        dropped: 3,
      });
    }
  });

  it('drops blank excerpts and sorts NaN scores last', () => {
    const blank = hit('blank', 0.99, '   ');
    const nan = hit('nan', Number.NaN, 'Unscored text.');
    const sut = enforceBudget([nan, blank, c], 1000, counter);
    expect(sut.excerpts.map((e) => e.id)).toEqual(['c', 'nan']);
    expect(sut.dropped).toBe(1);
  });

  it('token_count equals an independent recount and never exceeds the budget (property)', () => {
    const arbHit = fc.record({
      id: fc.uuid(),
      rerank_score: fc.double({ min: 0, max: 1, noNaN: true }),
      content: fc
        .array(
          fc.constantFrom(
            'order',
            'ABC-12345',
            'refund.',
            'delivery',
            'Sunday?',
            '电话',
            '[REDACTED:PHONE]',
          ),
          {
            minLength: 1,
            maxLength: 80,
          },
        )
        .map((ws) => ws.join(' ')),
      channel: fc.constant('call'),
    });
    fc.assert(
      fc.property(
        fc.array(arbHit, { maxLength: 8 }),
        fc.integer({ min: 0, max: 400 }),
        (hits, budget) => {
          const sut = enforceBudget(hits, budget, counter);
          expect(sut.token_count).toBe(recount(sut.excerpts));
          expect(sut.token_count).toBeLessThanOrEqual(budget);
          expect(sut.excerpts.length + sut.dropped).toBe(hits.length);
          const scores = sut.excerpts.map((e) => e.rerank_score);
          expect(scores).toEqual([...scores].sort((x, y) => y - x));
        },
      ),
      { numRuns: 100 },
    );
  });
});
