import { randomUUID } from 'node:crypto';

import { RedisConnection } from '@app/redis';
import { type Redis } from 'ioredis';

import { startRedis, type TestRedis } from '../../test/support/redis';
import { waitFor } from '../../test/support/wait';
import { RedisThrottlerStorage } from './redis-throttler.storage';

describe('RedisThrottlerStorage (real redis-server)', () => {
  let redis: TestRedis;
  const connections: RedisConnection[] = [];

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterEach(async () => {
    await Promise.all(connections.splice(0).map((c) => c.close()));
  });
  afterAll(() => redis.stop());

  /** One replica's storage on its own process-wide connection, once connected (or not). */
  const replica = async (url: string, commandTimeoutMs: number, waitMs = 3000) => {
    const connection = new RedisConnection({ url });
    connections.push(connection);
    const ready = await connection.waitUntilReady(waitMs);
    return { sut: new RedisThrottlerStorage(connection.client as Redis, commandTimeoutMs), ready };
  };

  it('counts one window per key across instances (replicas) and blocks past the limit', async () => {
    const { sut: a, ready: aReady } = await replica(redis.url, 500);
    const { sut: b, ready: bReady } = await replica(redis.url, 500);
    try {
      const key = `key:${randomUUID()}`;
      expect([aReady, bReady]).toEqual([true, true]);
      const hits = [];
      for (const replica of [a, b, a]) {
        hits.push(await replica.increment(key, 60_000, 2, 60_000, 'default'));
      }
      expect(hits.map((h) => [h.totalHits, h.isBlocked])).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]);
      expect(hits[2].timeToBlockExpire).toBeGreaterThan(55);
      expect(hits[2].timeToBlockExpire).toBeLessThanOrEqual(60);
      expect(hits[0].timeToBlockExpire).toBe(0);
    } finally {
      a.onApplicationShutdown();
      b.onApplicationShutdown();
    }
  });

  it('starts a new window once the old one expires', async () => {
    const { sut, ready } = await replica(redis.url, 500);
    try {
      const key = `key:${randomUUID()}`;
      expect(ready).toBe(true);
      await sut.increment(key, 150, 1, 150, 'default');
      expect((await sut.increment(key, 150, 1, 150, 'default')).isBlocked).toBe(true);
      // Redis expires the window on its own clock: poll until a hit opens a new one.
      const fresh = await waitFor('a new window', async () => {
        const hit = await sut.increment(key, 150, 1, 150, 'default');
        return hit.isBlocked ? undefined : hit;
      });
      expect(fresh).toMatchObject({ totalHits: 1, isBlocked: false });
    } finally {
      sut.onApplicationShutdown();
    }
  });

  it('keeps limiting in memory when Redis is unreachable', async () => {
    const { sut } = await replica('redis://127.0.0.1:1', 50, 0);
    try {
      const results = [];
      for (let i = 0; i < 3; i++) {
        results.push(await sut.increment('key:down', 60_000, 2, 60_000, 'default'));
      }
      expect(results.map((r) => r.isBlocked)).toEqual([false, false, true]);
    } finally {
      sut.onApplicationShutdown();
    }
  });
});
