import { withCommandTimeout } from '@app/redis';
import { type Redis } from 'ioredis';

import { type CoalescerStateStore } from '../interfaces/coalescer-state-store.interface';
import { words, wordTail } from '../tail';

/** Every key this store writes starts with this, so the keyspace is easy to find and scan. */
export const REDIS_KEY_PREFIX = 'cb:coalesce:';

/** Options for {@link RedisStateStore}. */
export interface RedisStateStoreOptions {
  /** The process's shared client (`RedisConnection`); the store never closes it. */
  redis: Redis;
  /** Values longer than this are cut (leading words first) before they are written. */
  maxTailChars: number;
  /** Per-command timeout: state is an optimisation, never worth missing the deadline for. */
  commandTimeoutMs: number;
}

/**
 * Shared state for several replicas: one `SET cb:coalesce:<call_id> <tail> PX <ttl>` per
 * chunk, so whichever replica gets the next chunk sees the tail, and Redis expires idle
 * calls on its own. A command fails at once while Redis is disconnected (the shared client
 * queues nothing) and after `commandTimeoutMs` when it is slow.
 */
export class RedisStateStore implements CoalescerStateStore {
  private readonly redis: Redis;

  constructor(private readonly options: RedisStateStoreOptions) {
    this.redis = options.redis;
  }

  async get(callId: string): Promise<string | undefined> {
    return (await this.bounded(this.redis.get(REDIS_KEY_PREFIX + callId))) ?? undefined;
  }

  async set(callId: string, tail: string, ttlMs: number): Promise<void> {
    // The coalescer already bounds the tail; this guards the key against any other caller.
    const value =
      tail.length > this.options.maxTailChars
        ? wordTail(words(tail), Number.MAX_SAFE_INTEGER, this.options.maxTailChars)
        : tail;
    await this.bounded(
      this.redis.set(REDIS_KEY_PREFIX + callId, value, 'PX', Math.max(1, Math.ceil(ttlMs))),
    );
  }

  async delete(callId: string): Promise<void> {
    await this.bounded(this.redis.del(REDIS_KEY_PREFIX + callId));
  }

  /** Nothing to release: the connection belongs to `RedisConnection`, closed at shutdown. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private bounded<T>(command: Promise<T>): Promise<T> {
    return withCommandTimeout(this.options.commandTimeoutMs, command);
  }
}
