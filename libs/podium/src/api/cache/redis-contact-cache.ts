import { type Redis } from 'ioredis';

import { type ContactLookup } from '../../interfaces/podium-contacts.interface';
import {
  asLookup,
  type CacheRead,
  type ContactCache,
  DEFAULT_INVALIDATION_GUARD_MS,
} from './contact-cache';

/** Cached lookups live under this prefix (`<prefix><identifier>`). */
export const CONTACT_KEY_PREFIX = 'cb:podium:contact:';
/** Alias sets (`<prefix><identifier>` → cache keys) live under this one. */
export const ALIAS_KEY_PREFIX = 'cb:podium:alias:';
/** The last invalidation's count per identifier (`<prefix><identifier>`), for the write-back guard. */
export const INVALIDATED_KEY_PREFIX = 'cb:podium:invalidated:';
/** The deployment-wide invalidation counter: the clock every replica's stamps are read from. */
export const INVALIDATIONS_KEY = 'cb:podium:invalidations';

/**
 * Writes a fetched lookup unless one of its identifiers was invalidated after the read that
 * missed (ARGV[1], the counter then). Atomic, so an invalidation cannot fall between the
 * check and the write. KEYS: the entry, then `n` (ARGV[4]) invalidation marks, then the
 * alias sets that get the entry's key (ARGV[5]).
 */
const GUARDED_SET = `
local n = tonumber(ARGV[4])
if ARGV[1] ~= '' then
  for i = 2, n + 1 do
    local mark = redis.call('GET', KEYS[i])
    if mark and tonumber(mark) > tonumber(ARGV[1]) then return 0 end
  end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
for i = n + 2, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[5])
  redis.call('PEXPIRE', KEYS[i], ARGV[3])
end
return 1`;

/**
 * Counts the invalidation, marks the identifier with the count (for the guard's length),
 * and drops the entry and every entry indexed under it as an alias. KEYS: counter, mark,
 * alias set, entry; ARGV: guard ms, entry prefix.
 */
const INVALIDATE = `
local count = redis.call('INCR', KEYS[1])
redis.call('SET', KEYS[2], count, 'PX', ARGV[1])
local keys = redis.call('SMEMBERS', KEYS[3])
redis.call('DEL', KEYS[3], KEYS[4])
for _, key in ipairs(keys) do redis.call('DEL', ARGV[2] .. key) end
return count`;

/**
 * Shared cache for several replicas: a lookup is one `SET … PX ttl` of its JSON, and each
 * alias a set of keys with the same TTL, so an invalidation on any replica drops it for all.
 * The "invalidated while being fetched" guard is shared too: invalidations are counted in
 * Redis, a read returns the count, and a fetched value is written back only if none of its
 * identifiers was invalidated since (on any replica). The shared client fails fast (no
 * offline queue, a command ceiling); any failure is a miss. One Redis, not a cluster: the
 * scripts touch keys across slots.
 */
export class RedisContactCache implements ContactCache {
  /**
   * @param redis The process's shared client (`RedisConnection`); its 250 ms command ceiling suits a cache.
   * @param guardMs How long an invalidation mark lives: longer than any lookup can take.
   */
  constructor(
    private readonly redis: Redis,
    private readonly guardMs = DEFAULT_INVALIDATION_GUARD_MS,
  ) {}

  async get(key: string): Promise<ContactLookup | undefined> {
    return (await this.read(key)).lookup;
  }

  async read(key: string): Promise<CacheRead> {
    try {
      const replies = await this.redis
        .multi()
        .get(CONTACT_KEY_PREFIX + key)
        .get(INVALIDATIONS_KEY)
        .exec();
      const [raw, count] = (replies ?? []).map(([error, value]) => {
        if (error) {
          throw error;
        }
        return value as string | null;
      });
      return {
        lookup: raw === null || raw === undefined ? undefined : asLookup(JSON.parse(raw)),
        stamp: Number(count ?? 0),
      };
    } catch {
      return {};
    }
  }

  async set(
    key: string,
    lookup: ContactLookup,
    ttlMs: number,
    aliases: string[],
    stamp?: number,
  ): Promise<boolean> {
    const px = Math.max(1, Math.ceil(ttlMs));
    const ids = [key, ...aliases.filter((a) => a !== key)];
    const written = await this.redis.eval(
      GUARDED_SET,
      ids.length * 2,
      CONTACT_KEY_PREFIX + key,
      ...ids.map((id) => INVALIDATED_KEY_PREFIX + id),
      ...ids.slice(1).map((alias) => ALIAS_KEY_PREFIX + alias),
      stamp === undefined ? '' : String(stamp),
      JSON.stringify(lookup),
      String(px),
      String(ids.length),
      key,
    );
    return written === 1;
  }

  async invalidate(identifier: string): Promise<void> {
    await this.redis.eval(
      INVALIDATE,
      4,
      INVALIDATIONS_KEY,
      INVALIDATED_KEY_PREFIX + identifier,
      ALIAS_KEY_PREFIX + identifier,
      CONTACT_KEY_PREFIX + identifier,
      String(Math.max(1, Math.ceil(this.guardMs))),
      CONTACT_KEY_PREFIX,
    );
  }

  /** Nothing to release: the connection belongs to `RedisConnection`, closed at shutdown. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
