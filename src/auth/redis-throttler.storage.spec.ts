import { randomUUID } from 'node:crypto';

import { startRedis, type TestRedis } from '../../test/support/redis';
import { RedisThrottlerStorage } from './redis-throttler.storage';

describe('RedisThrottlerStorage (real redis-server)', () => {
  let redis: TestRedis;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis.stop());

  it('counts one window per key across instances (replicas) and blocks past the limit', async () => {
    const a = new RedisThrottlerStorage(redis.url, 500);
    const b = new RedisThrottlerStorage(redis.url, 500);
    try {
      const key = `key:${randomUUID()}`;
      expect(await a.waitUntilReady(3000)).toBe(true);
      expect(await b.waitUntilReady(3000)).toBe(true);
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
    const sut = new RedisThrottlerStorage(redis.url, 500);
    try {
      const key = `key:${randomUUID()}`;
      expect(await sut.waitUntilReady(3000)).toBe(true);
      await sut.increment(key, 150, 1, 150, 'default');
      expect((await sut.increment(key, 150, 1, 150, 'default')).isBlocked).toBe(true);
      await new Promise((r) => setTimeout(r, 250));
      expect(await sut.increment(key, 150, 1, 150, 'default')).toMatchObject({
        totalHits: 1,
        isBlocked: false,
      });
    } finally {
      sut.onApplicationShutdown();
    }
  });

  it('keeps limiting in memory when Redis is unreachable', async () => {
    const sut = new RedisThrottlerStorage('redis://127.0.0.1:1', 50);
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
