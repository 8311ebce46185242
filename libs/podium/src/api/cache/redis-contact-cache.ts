import { closeGracefully, waitUntilReady } from '@app/common';
import { Redis } from 'ioredis';

import { type ContactLookup } from '../../interfaces/podium-contacts.interface';
import { asLookup, type ContactCache } from './contact-cache';

/** Cached lookups live under this prefix (`<prefix><identifier>`). */
export const CONTACT_KEY_PREFIX = 'cb:podium:contact:';
/** Alias sets (`<prefix><identifier>` → cache keys) live under this one. */
export const ALIAS_KEY_PREFIX = 'cb:podium:alias:';

/** Options for {@link RedisContactCache}. */
export interface RedisContactCacheOptions {
  url: string;
  /** Per-command timeout: the cache is an optimisation, never worth missing a deadline for. */
  commandTimeoutMs: number;
}

/**
 * Shared cache for several replicas: a lookup is one `SET … PX ttl` of its JSON, and each
 * alias a set of keys with the same TTL, so an invalidation on any replica drops it for all.
 * Tuned to fail fast: no offline queue, a short command timeout, and any failure is a miss.
 */
export class RedisContactCache implements ContactCache {
  private readonly redis: Redis;
  /** The latest connection error, for the degraded-mode log line. */
  lastError?: Error;

  constructor(options: RedisContactCacheOptions) {
    this.redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: 2000,
      disconnectTimeout: 200,
      retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
    });
    // Without a listener ioredis prints every reconnect failure to stderr as "unhandled".
    this.redis.on('error', (error: Error) => {
      this.lastError = error;
    });
  }

  /** Resolves true once connected, or false after `timeoutMs`; never rejects. */
  waitUntilReady(timeoutMs: number): Promise<boolean> {
    return waitUntilReady(this.redis, timeoutMs);
  }

  async get(key: string): Promise<ContactLookup | undefined> {
    try {
      const raw = await this.redis.get(CONTACT_KEY_PREFIX + key);
      return raw === null ? undefined : asLookup(JSON.parse(raw));
    } catch {
      return undefined;
    }
  }

  async set(key: string, lookup: ContactLookup, ttlMs: number, aliases: string[]): Promise<void> {
    const px = Math.max(1, Math.ceil(ttlMs));
    const batch = this.redis
      .multi()
      .set(CONTACT_KEY_PREFIX + key, JSON.stringify(lookup), 'PX', px);
    for (const alias of aliases) {
      if (alias !== key) {
        batch.sadd(ALIAS_KEY_PREFIX + alias, key).pexpire(ALIAS_KEY_PREFIX + alias, px);
      }
    }
    await batch.exec();
  }

  async invalidate(identifier: string): Promise<void> {
    const keys = await this.redis.smembers(ALIAS_KEY_PREFIX + identifier);
    await this.redis.del(
      CONTACT_KEY_PREFIX + identifier,
      ALIAS_KEY_PREFIX + identifier,
      ...keys.map((k) => CONTACT_KEY_PREFIX + k),
    );
  }

  /** QUIT when connected, so shutdown leaves no open handle; otherwise just drop the socket. */
  close(): Promise<void> {
    return closeGracefully(this.redis);
  }
}
