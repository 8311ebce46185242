import { type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';

import { closeGracefully, waitUntilReady } from './redis-ready';

/** Options for `RedisModule`; without a `url` the process has no Redis at all. */
export interface RedisModuleOptions {
  /** `REDIS_URL`; may hold a password, so it is never logged. */
  url?: string;
  /**
   * Ceiling on any one command (default 250 ms): it only stops a hung Redis from piling up
   * commands. Each consumer bounds its own commands tighter with `withCommandTimeout`.
   */
  commandTimeoutMs?: number;
}

/**
 * Not tighter by default: an event-loop stall of 100 ms (PGlite under load) would otherwise
 * time out replies that already arrived. Consumers that must answer sooner bound their own
 * commands (`withCommandTimeout`).
 */
export const DEFAULT_COMMAND_TIMEOUT_MS = 250;

/**
 * The process's one Redis client (coalescer state, contact cache, rate-limit counters), made
 * on first use and only when a URL is configured. Every user of Redis here treats it as an
 * optimisation, so the client fails fast rather than waits: no offline queue, no retries of
 * a command, a command ceiling; it keeps reconnecting in the background with capped backoff.
 * Closed once, at application shutdown, after the HTTP server has drained.
 */
export class RedisConnection implements OnApplicationShutdown {
  private redis?: Redis;
  /** The latest connection error, for the degraded-mode log lines. */
  lastError?: Error;

  constructor(private readonly options: RedisModuleOptions) {}

  /** The shared client, connecting on first use; `undefined` when no URL is configured. */
  get client(): Redis | undefined {
    if (!this.redis && this.options.url) {
      this.redis = new Redis(this.options.url, {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: this.options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
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
    return this.redis;
  }

  /** The client's connection state (`ready`, `reconnecting`, `end`, …); `none` before use. */
  get status(): string {
    return this.redis?.status ?? 'none';
  }

  /** Resolves true once connected, or false after `timeoutMs` (or without a URL); never rejects. */
  waitUntilReady(timeoutMs: number): Promise<boolean> {
    const client = this.client;
    return client ? waitUntilReady(client, timeoutMs) : Promise.resolve(false);
  }

  /** QUIT when connected, so shutdown leaves no open handle; otherwise just drop the socket. */
  async close(): Promise<void> {
    if (this.redis) {
      await closeGracefully(this.redis);
    }
  }

  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/** What a command that lost the race against its consumer's own bound rejects with. */
export class RedisCommandTimeoutError extends Error {
  override readonly name = 'RedisCommandTimeoutError';

  constructor(ms: number) {
    super(`Redis command timed out after ${ms} ms`);
  }
}

/**
 * Bounds one command tighter than the shared client's ceiling, for a caller on a deadline
 * (the coalescer, the rate limiter). The command itself is not cancelled; a late answer or
 * failure is dropped.
 */
export function withCommandTimeout<T>(ms: number, command: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new RedisCommandTimeoutError(ms)), ms);
    timer.unref();
  });
  command.catch(() => undefined); // lost races must not surface as unhandled rejections
  return Promise.race([command, timeout]).finally(() => clearTimeout(timer));
}
