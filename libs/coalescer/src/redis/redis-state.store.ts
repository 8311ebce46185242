import { closeGracefully, waitUntilReady } from '@app/common';
import { Redis } from 'ioredis';

import { type CoalescerStateStore } from '../interfaces/coalescer-state-store.interface';
import { words, wordTail } from '../tail';

/** Every key this store writes starts with this, so the keyspace is easy to find and scan. */
export const REDIS_KEY_PREFIX = 'cb:coalesce:';

/** Options for {@link RedisStateStore}. */
export interface RedisStateStoreOptions {
  url: string;
  /** Values longer than this are cut (leading words first) before they are written. */
  maxTailChars: number;
  /** Per-command timeout: state is an optimisation, never worth missing the deadline for. */
  commandTimeoutMs: number;
}

/**
 * Shared state for several replicas: one `SET cb:coalesce:<call_id> <tail> PX <ttl>` per
 * chunk, so whichever replica gets the next chunk sees the tail, and Redis expires idle
 * calls on its own. Tuned to fail fast rather than wait: commands are not queued while
 * disconnected and time out after `commandTimeoutMs`; the client keeps reconnecting in the
 * background with capped backoff.
 */
export class RedisStateStore implements CoalescerStateStore {
  private readonly redis: Redis;
  /** The latest connection error, for the degraded-mode log line. */
  lastError?: Error;

  constructor(private readonly options: RedisStateStoreOptions) {
    this.redis = new Redis(options.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs,
      connectTimeout: 2000,
      // ioredis keeps a (non-unref'd) timer this long after disconnecting a dead socket.
      disconnectTimeout: 200,
      retryStrategy: (attempt) => Math.min(100 * attempt, 2000),
    });
    // Without a listener ioredis prints every reconnect failure to stderr as "unhandled".
    this.redis.on('error', (error: Error) => {
      this.lastError = error;
    });
  }

  /** The client's connection state (`ready`, `reconnecting`, `end`, …), for health and tests. */
  get status(): string {
    return this.redis.status;
  }

  /** Resolves true once connected, or false after `timeoutMs`; never rejects. */
  waitUntilReady(timeoutMs: number): Promise<boolean> {
    return waitUntilReady(this.redis, timeoutMs);
  }

  async get(callId: string): Promise<string | undefined> {
    return (await this.redis.get(REDIS_KEY_PREFIX + callId)) ?? undefined;
  }

  async set(callId: string, tail: string, ttlMs: number): Promise<void> {
    // The coalescer already bounds the tail; this guards the key against any other caller.
    const value =
      tail.length > this.options.maxTailChars
        ? wordTail(words(tail), Number.MAX_SAFE_INTEGER, this.options.maxTailChars)
        : tail;
    await this.redis.set(REDIS_KEY_PREFIX + callId, value, 'PX', Math.max(1, Math.ceil(ttlMs)));
  }

  async delete(callId: string): Promise<void> {
    await this.redis.del(REDIS_KEY_PREFIX + callId);
  }

  /** QUIT when connected, so shutdown leaves no open handle; otherwise just drop the socket. */
  close(): Promise<void> {
    return closeGracefully(this.redis);
  }
}
