import { LRUCache } from 'lru-cache';

import {
  byteBound,
  jsonBytes,
  NUMBER_BYTES,
  numbersBytes,
  stringBytes,
  stringsBytes,
} from './cache-bytes';

describe('byteBound', () => {
  /** Distinct texts of `length` characters. */
  const text = (i: number, length = 20_000) => `${i} `.padEnd(length, 'x');

  it('keeps a cache keyed by large texts under its byte budget, however many arrive', () => {
    const budget = 1024 * 1024;
    const sut = new LRUCache<string, number>({
      max: 20_000,
      ...byteBound<number>(budget, () => NUMBER_BYTES),
    });
    for (let i = 0; i < 200; i++) {
      sut.set(text(i), i);
    }
    expect(sut.calculatedSize).toBeLessThanOrEqual(budget);
    // ~40 KB an entry: about 25 fit, the most recent ones.
    expect(sut.size).toBeGreaterThan(10);
    expect(sut.size).toBeLessThan(30);
    expect(sut.get(text(199))).toBe(199);
    expect(sut.get(text(0))).toBeUndefined();
  });

  it('does not store an entry larger than the whole budget', () => {
    const sut = new LRUCache<string, number>(byteBound<number>(10_000, () => NUMBER_BYTES));
    sut.set(text(1, 100), 1);
    sut.set(text(2, 20_000), 2);
    expect(sut.get(text(2, 20_000))).toBeUndefined();
    expect(sut.get(text(1, 100))).toBe(1);
  });

  it('charges keys and values at two bytes per character, eight per number', () => {
    expect(stringBytes('abcd')).toBeGreaterThanOrEqual(8);
    expect(numbersBytes(new Array<number>(768).fill(0))).toBeGreaterThanOrEqual(768 * 8);
    expect(stringsBytes(new Set(['ab', 'cd']))).toBeGreaterThanOrEqual(8);
    expect(jsonBytes({ a: 'xyz' })).toBeGreaterThanOrEqual(2 * '{"a":"xyz"}'.length);
    const { sizeCalculation } = byteBound<string>(1_000_000, stringBytes);
    expect(sizeCalculation('v'.repeat(100), 'k'.repeat(1000))).toBeGreaterThanOrEqual(2200);
  });
});
