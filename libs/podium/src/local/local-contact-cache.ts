import { type Database } from '@app/database';

import { type ContactCache } from '../api/cache/contact-cache';
import { MemoryContactCache } from '../api/cache/memory-contact-cache';

/** How long the embedded CRM keeps a copy of a row, and how many (PODIUM_CACHE_* settings). */
export interface LocalCacheOptions {
  ttlMs: number;
  notFoundTtlMs: number;
  maxEntries: number;
}

/** A cache and how long its copies live. */
export interface LocalCache {
  cache: ContactCache;
  ttlMs: number;
  notFoundTtlMs: number;
}

/**
 * One cache per database, so every `LocalPodiumContacts` over it (the server's provider, the
 * demo seeder's, an import's) fills and drops the same copies: an upsert through any of them
 * invalidates what the provider serves.
 */
const caches = new WeakMap<Database, LocalCache>();

/**
 * Registers the cache of `database`'s contact rows, only on the embedded engine: PGlite's data
 * dir is locked to this process, whose writes to `podium_contacts` all go through
 * `LocalPodiumContacts` (upsert, invalidate after an erasure), so a copy is never stale. A
 * Postgres server has other writers (replicas, the CLI), so its rows are read every time.
 */
export function registerLocalContactCache(
  database: Database,
  options: LocalCacheOptions,
): LocalCache | undefined {
  if (database.engine !== 'pglite' || options.ttlMs <= 0) {
    return undefined;
  }
  const registered = caches.get(database) ?? {
    cache: new MemoryContactCache({ maxEntries: options.maxEntries }),
    ttlMs: options.ttlMs,
    notFoundTtlMs: Math.min(options.ttlMs, options.notFoundTtlMs),
  };
  caches.set(database, registered);
  return registered;
}

/** The cache registered for `database`, if any. */
export function localContactCache(database: Database): LocalCache | undefined {
  return caches.get(database);
}
