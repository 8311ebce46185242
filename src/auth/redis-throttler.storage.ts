import { withCommandTimeout } from '@app/redis';
import { Logger, type OnApplicationShutdown } from '@nestjs/common';
import { type ThrottlerStorage, ThrottlerStorageService } from '@nestjs/throttler';
import { type Redis } from 'ioredis';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** Connecting at boot: requests meanwhile count in memory without a warning. */
const STARTUP_GRACE_MS = 5000;

/** Keys live under this prefix, next to the coalescer's. */
export const RATE_LIMIT_KEY_PREFIX = 'context-bridge:rl:';

/**
 * A fixed window per key: the first hit starts it (PEXPIRE), later hits count in it. Atomic
 * in Redis, so every replica sees one counter per caller.
 */
const HIT = `
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return { hits, ttl }
`;

/**
 * Rate-limit counters shared by all replicas (REDIS_URL). When Redis does not answer within
 * a few ms, the replica counts in its own memory instead: limits get per-replica for a while,
 * which beats refusing every request, or letting every request through unlimited.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly logger = new Logger(RedisThrottlerStorage.name);
  private readonly fallback = new ThrottlerStorageService();
  private readonly startedAt = Date.now();
  private degraded = false;

  /**
   * `redis`: the process's shared client (`RedisConnection`, which closes it); an outage is
   * reported once, here. `commandTimeoutMs`: a request never waits longer on its counter.
   */
  constructor(
    private readonly redis: Redis,
    private readonly commandTimeoutMs = 50,
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    try {
      const [hits, ttlMs] = (await withCommandTimeout(
        this.commandTimeoutMs,
        this.redis.eval(HIT, 1, `${RATE_LIMIT_KEY_PREFIX}${key}`, String(ttl)),
      )) as [number, number];
      if (this.degraded) {
        this.degraded = false;
        this.logger.log('rate-limit counters back in Redis');
      }
      const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
      const isBlocked = hits > limit;
      return {
        totalHits: hits,
        timeToExpire: seconds,
        isBlocked,
        timeToBlockExpire: isBlocked ? seconds : 0,
      };
    } catch (error) {
      // The first seconds after boot are the connection coming up: not worth a warning.
      if (!this.degraded && Date.now() - this.startedAt > STARTUP_GRACE_MS) {
        this.degraded = true;
        this.logger.warn(
          `Redis unavailable for rate limits (${(error as Error).name}); counting per replica`,
        );
      }
      return this.fallback.increment(key, ttl, limit, blockDuration, throttlerName);
    }
  }

  onApplicationShutdown(): void {
    this.fallback.onApplicationShutdown();
  }
}
