import { byteBound, stringBytes } from '@app/common';
import { LRUCache, type Perf } from 'lru-cache';

import { type CoalescerStateStore } from '../interfaces/coalescer-state-store.interface';

/**
 * Bytes allowed per call on average: a call id and an 8-word tail take ~300, so the count
 * bound is what binds unless callers send huge ids or unbroken "words".
 */
const BYTES_PER_CALL = 1024;

/** Options for {@link MemoryStateStore}. */
export interface MemoryStateStoreOptions {
  /** Most calls kept; the least recently fed is evicted first. */
  maxCalls: number;
  /** Default TTL, also applied per write. */
  ttlMs: number;
  /** Clock for TTL checks; tests inject a fake one. */
  perf?: Perf;
}

/**
 * Per-process state: right for one replica, and the default. Both bounds hold: `maxCalls`
 * (and its byte budget, as call ids and tails are the caller's text) caps memory however
 * many calls arrive, and expired tails are never returned (they are
 * reclaimed lazily or by eviction; no per-entry timers, which 10,000 calls would make costly).
 */
export class MemoryStateStore implements CoalescerStateStore {
  private readonly cache: LRUCache<string, string>;

  constructor(options: MemoryStateStoreOptions) {
    this.cache = new LRUCache<string, string>({
      max: options.maxCalls,
      ...byteBound<string>(options.maxCalls * BYTES_PER_CALL, stringBytes),
      ttl: options.ttlMs,
      perf: options.perf,
      // The default 1 ms resolution caches "now" behind a real timer; an injected clock
      // must be read every time or a test's clock jump would be ignored.
      ttlResolution: options.perf ? 0 : 1,
    });
  }

  /** Number of calls currently held (expired ones may still count until touched). */
  get size(): number {
    return this.cache.size;
  }

  get(callId: string): Promise<string | undefined> {
    return Promise.resolve(this.cache.get(callId));
  }

  set(callId: string, tail: string, ttlMs: number): Promise<void> {
    this.cache.set(callId, tail, { ttl: ttlMs });
    return Promise.resolve();
  }

  delete(callId: string): Promise<void> {
    this.cache.delete(callId);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.cache.clear();
    return Promise.resolve();
  }
}
