import { type Redis } from 'ioredis';

import { type ContactLookup } from '../../interfaces/podium-contacts.interface';
import { asLookup, type ContactCache } from './contact-cache';

/** Cached lookups live under this prefix (`<prefix><identifier>`). */
export const CONTACT_KEY_PREFIX = 'cb:podium:contact:';
/** Alias sets (`<prefix><identifier>` → cache keys) live under this one. */
export const ALIAS_KEY_PREFIX = 'cb:podium:alias:';

/**
 * Shared cache for several replicas: a lookup is one `SET … PX ttl` of its JSON, and each
 * alias a set of keys with the same TTL, so an invalidation on any replica drops it for all.
 * The shared client fails fast (no offline queue, a command ceiling); any failure is a miss.
 */
export class RedisContactCache implements ContactCache {
  /** The process's shared client (`RedisConnection`); its 250 ms command ceiling suits a cache. */
  constructor(private readonly redis: Redis) {}

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

  /** Nothing to release: the connection belongs to `RedisConnection`, closed at shutdown. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
