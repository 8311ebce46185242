import { TEXT_CACHE_TTL_MS } from '@app/common';

import { termCache, termOverlap } from './term-overlap';

describe('termOverlap', () => {
  it('is the share of query content words a text contains, ignoring stop words and labels', () => {
    expect(termOverlap('the refund policy for chairs', ['customer: chairs refund policy'])).toEqual(
      [1],
    );
    expect(termOverlap('refund policy for chairs', ['agent: a full refund'])).toEqual([1 / 3]);
    expect(termOverlap('what is the customer asking', ['customer: hello'])).toEqual([0]);
  });

  it('gives partial credit to short inflections but not to unrelated prefixes', () => {
    const [inflected] = termOverlap('refunded', ['a refund was issued']);
    expect(inflected).toBeGreaterThan(0);
    expect(inflected).toBeLessThan(1);
    expect(termOverlap('shipping', ['we ship tomorrow'])).toEqual([0]);
  });

  it('weights words that single a candidate out above words every candidate shares', () => {
    const pool = [
      'order ORD-48213 is delayed',
      'order shipped yesterday',
      'order cancelled',
      'order refunded',
      'order placed',
    ];
    const scores = termOverlap('order 48213', pool);
    expect(scores[0]).toBe(1);
    expect(scores[1]).toBeLessThan(0.5);
  });

  it('scores 0 everywhere for a query with no content words', () => {
    expect(termOverlap('is it that?', ['that is it', 'two'])).toEqual([0, 0]);
  });
});

describe('term cache', () => {
  it('is bounded in bytes, charging the text and its terms', () => {
    termCache.clear();
    const words = Array.from({ length: 2_000 }, (_, i) => `word${i}`);
    const text = words.join(' ');
    termOverlap('word1', [text]);
    expect(termCache.maxSize).toBeLessThanOrEqual(64 * 1024 * 1024);
    // Windows and their words are kept: an erased contact's must expire (old: until evicted).
    expect(termCache.ttl).toBe(TEXT_CACHE_TTL_MS);
    // The text at two bytes a character, and more again for the 2,000 terms kept.
    expect(termCache.calculatedSize).toBeGreaterThan(
      2 * text.length + 2 * 2 * words.join('').length,
    );
  });
});
