import { LRUCache, type Perf } from 'lru-cache';

import { type ContactLookup } from '../../interfaces/podium-contacts.interface';
import { type ContactCache } from './contact-cache';

/** Options for {@link MemoryContactCache}. */
export interface MemoryContactCacheOptions {
  maxEntries: number;
  /** Clock for TTL checks; tests inject a fake one. */
  perf?: Perf;
}

/**
 * Per-process cache: right for one replica. Bounded by `maxEntries` (least recently used
 * evicted first); entries expire by their own TTL.
 */
export class MemoryContactCache implements ContactCache {
  private readonly entries: LRUCache<string, ContactLookup>;
  private readonly aliases: LRUCache<string, string[]>;

  constructor(options: MemoryContactCacheOptions) {
    const common = {
      max: options.maxEntries,
      ttlAutopurge: false,
      perf: options.perf,
      // An injected clock must be read on every check, or a test's clock jump is ignored.
      ttlResolution: options.perf ? 0 : 1,
    };
    this.entries = new LRUCache<string, ContactLookup>(common);
    this.aliases = new LRUCache<string, string[]>(common);
  }

  get(key: string): Promise<ContactLookup | undefined> {
    return Promise.resolve(this.entries.get(key));
  }

  set(key: string, lookup: ContactLookup, ttlMs: number, aliases: string[]): Promise<void> {
    this.entries.set(key, lookup, { ttl: ttlMs });
    for (const alias of aliases) {
      if (alias !== key) {
        const keys = this.aliases.get(alias) ?? [];
        this.aliases.set(alias, keys.includes(key) ? keys : [...keys, key], { ttl: ttlMs });
      }
    }
    return Promise.resolve();
  }

  invalidate(identifier: string): Promise<void> {
    for (const key of this.aliases.get(identifier) ?? []) {
      this.entries.delete(key);
    }
    this.aliases.delete(identifier);
    this.entries.delete(identifier);
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.entries.clear();
    this.aliases.clear();
    return Promise.resolve();
  }
}
