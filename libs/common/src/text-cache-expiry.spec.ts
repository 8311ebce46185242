import { LRUCache } from 'lru-cache';

import {
  sweepStale,
  TEXT_CACHE_SWEEP_MS,
  TEXT_CACHE_TTL,
  TEXT_CACHE_TTL_MS,
} from './text-cache-expiry';

describe('text cache expiry', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('drops an entry nobody reads again within TEXT_CACHE_TTL_MS + TEXT_CACHE_SWEEP_MS (old: it stayed until evicted)', () => {
    jest.useFakeTimers();
    // lru-cache keeps the clock it found at import: hand it the faked one.
    const sut = sweepStale(
      new LRUCache<string, number>({ max: 10, ...TEXT_CACHE_TTL, perf: performance }),
    );
    jest.advanceTimersByTime(1); // lru-cache reads a start time of 0 as "no lifetime"
    sut.set('an erased contact said this', 7);
    jest.advanceTimersByTime(TEXT_CACHE_TTL_MS - 1);
    expect(sut.get('an erased contact said this')).toBe(7); // a hot text is still served
    jest.advanceTimersByTime(TEXT_CACHE_SWEEP_MS + 1);
    // Gone from memory, not only unreadable: the sweep purged it without a read.
    expect(sut.size).toBe(0);
  });
});
