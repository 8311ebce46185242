import { byteBound, jsonBytes, NUMBER_BYTES, stringsBytes } from '@app/common';
import { LRUCache, type Perf } from 'lru-cache';

import { type ContactLookup } from '../../interfaces/podium-contacts.interface';
import { type CacheRead, type ContactCache, DEFAULT_INVALIDATION_GUARD_MS } from './contact-cache';

/** Room in the alias index per cached contact (uid, phones, emails, conversations). */
const ALIASES_PER_ENTRY = 8;

/**
 * Byte budgets per entry on average: a lookup is ~1 KB of JSON, an alias a short id. Keys are
 * the caller's identifiers, so the caches are bounded in bytes as well as in entries.
 */
const BYTES_PER_ENTRY = 4096;
const BYTES_PER_ALIAS = 512;

/** Options for {@link MemoryContactCache}. */
export interface MemoryContactCacheOptions {
  maxEntries: number;
  /** How long an invalidation is remembered for {@link ContactCache.set}'s guard: longer than any lookup. */
  guardMs?: number;
  /** Clock for TTL checks; tests inject a fake one. */
  perf?: Perf;
}

/**
 * Per-process cache: right for one replica. Bounded by `maxEntries` and by bytes (least
 * recently used evicted first); entries expire by their own TTL.
 */
export class MemoryContactCache implements ContactCache {
  private readonly entries: LRUCache<string, ContactLookup>;
  private readonly aliases: LRUCache<string, string[]>;
  /** Identifier → the invalidation count when it was last invalidated. */
  private readonly invalidated: LRUCache<string, number>;
  private invalidations = 0;
  /** The latest invalidation whose mark was evicted: a write-back read before it is refused. */
  private forgottenUpTo = -Infinity;

  constructor(options: MemoryContactCacheOptions) {
    const common = {
      max: options.maxEntries,
      ttlAutopurge: false,
      perf: options.perf,
      // An injected clock must be read on every check, or a test's clock jump is ignored.
      ttlResolution: options.perf ? 0 : 1,
    };
    this.entries = new LRUCache<string, ContactLookup>({
      ...common,
      ...byteBound<ContactLookup>(options.maxEntries * BYTES_PER_ENTRY, jsonBytes),
    });
    // A contact has several ids, so the alias index gets more room; and an entry never
    // outlives an evicted alias of it, or a webhook's invalidate by that alias would miss.
    this.aliases = new LRUCache<string, string[]>({
      ...common,
      max: options.maxEntries * ALIASES_PER_ENTRY,
      ...byteBound<string[]>(
        options.maxEntries * ALIASES_PER_ENTRY * BYTES_PER_ALIAS,
        stringsBytes,
      ),
      dispose: (keys, _alias, reason) => {
        if (reason === 'evict') {
          keys.forEach((key) => this.entries.delete(key));
        }
      },
    });
    this.invalidated = new LRUCache<string, number>({
      ...common,
      max: options.maxEntries * ALIASES_PER_ENTRY,
      // Keyed by webhook-supplied ids, so bounded in bytes too, as the alias index is.
      ...byteBound<number>(
        options.maxEntries * ALIASES_PER_ENTRY * BYTES_PER_ALIAS,
        () => NUMBER_BYTES,
      ),
      ttl: options.guardMs ?? DEFAULT_INVALIDATION_GUARD_MS,
      // A mark evicted before its guard time is over must not let a stale write-back in:
      // refusing every older one costs a cache miss at most.
      dispose: (count, _id, reason) => {
        if (reason === 'evict') {
          this.forgottenUpTo = Math.max(this.forgottenUpTo, count);
        }
      },
    });
  }

  get(key: string): Promise<ContactLookup | undefined> {
    return Promise.resolve(this.entries.get(key));
  }

  read(key: string): Promise<CacheRead> {
    return Promise.resolve({ lookup: this.entries.get(key), stamp: this.invalidations });
  }

  set(
    key: string,
    lookup: ContactLookup,
    ttlMs: number,
    aliases: string[],
    stamp?: number,
  ): Promise<boolean> {
    if (
      stamp !== undefined &&
      (this.forgottenUpTo > stamp ||
        [key, ...aliases].some((id) => (this.invalidated.get(id) ?? -Infinity) > stamp))
    ) {
      return Promise.resolve(false);
    }
    this.entries.set(key, lookup, { ttl: ttlMs });
    for (const alias of aliases) {
      if (alias !== key) {
        const keys = this.aliases.get(alias) ?? [];
        this.aliases.set(alias, keys.includes(key) ? keys : [...keys, key], { ttl: ttlMs });
      }
    }
    return Promise.resolve(true);
  }

  invalidate(identifier: string): Promise<void> {
    this.invalidated.set(identifier, ++this.invalidations);
    for (const key of this.aliases.get(identifier) ?? []) {
      this.entries.delete(key);
    }
    this.aliases.delete(identifier);
    this.entries.delete(identifier);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.invalidated.clear();
    this.entries.clear();
    this.aliases.clear();
    return Promise.resolve();
  }
}
