import { randomUUID } from 'node:crypto';

import { RedisConnection } from '@app/redis';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';

import {
  freePort,
  spawnRedisServer,
  startRedis,
  type TestRedis,
} from '../../../../test/support/redis';
import { waitUntil } from '../../../../test/support/wait';
import { resolveCoalescerConfig } from '../coalescer.config';
import { type CoalescerModuleOptions } from '../coalescer.module-definition';
import { createCoalescerStateStore } from '../coalescer.providers';
import { TranscriptCoalescer } from '../transcript-coalescer';
import { REDIS_KEY_PREFIX, RedisStateStore } from './redis-state.store';

/** A coalescer as one replica builds it: its process's Redis connection, via the module factory. */
async function replica(url: string, options: CoalescerModuleOptions = {}) {
  const connection = new RedisConnection({ url });
  const config = resolveCoalescerConfig(options);
  const store = await createCoalescerStateStore(options, config, connection);
  expect(store).toBeInstanceOf(RedisStateStore);
  return { sut: new TranscriptCoalescer(store, config), connection };
}

describe('RedisStateStore (real redis-server)', () => {
  let redis: TestRedis;
  let raw: Redis;
  const closers: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    // The outage tests log warnings on purpose; keep the test output readable.
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    redis = await startRedis();
    raw = new Redis(redis.url);
  });

  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  afterAll(async () => {
    await raw.quit();
    await redis.stop();
    jest.restoreAllMocks();
  });

  it('shares a call between two replicas: a split order number becomes one query', async () => {
    const a = await replica(redis.url);
    const b = await replica(redis.url);
    closers.push(
      () => a.connection.close(),
      () => b.connection.close(),
    );
    const callId = randomUUID();

    await a.sut.feed(callId, 'my order number is');
    await expect(b.sut.feed(callId, 'ABC-12345')).resolves.toEqual({
      query: 'my order number is ABC-12345',
      tail: 'my order number is',
      degraded: false,
    });
    await expect(a.sut.feed(randomUUID(), 'hello')).resolves.toMatchObject({ tail: '' });
  });

  it('writes cb:coalesce:<call_id> with a PX expiry that Redis enforces', async () => {
    const { sut, connection } = await replica(redis.url, { ttlMs: 300 });
    closers.push(() => connection.close());
    const callId = randomUUID();
    await sut.feed(callId, 'my order number is');

    const key = `${REDIS_KEY_PREFIX}${callId}`;
    await expect(raw.get(key)).resolves.toBe('my order number is');
    const pttl = await raw.pttl(key);
    expect(pttl).toBeGreaterThan(0);
    expect(pttl).toBeLessThanOrEqual(300);

    await waitUntil('Redis expired the key', async () => (await raw.exists(key)) === 0, 5000);
    await expect(sut.feed(callId, 'ABC-12345')).resolves.toMatchObject({
      query: 'ABC-12345',
      tail: '',
    });
  });

  it('caps the stored value so one call cannot grow its key', async () => {
    const connection = new RedisConnection({ url: redis.url });
    closers.push(() => connection.close());
    await connection.waitUntilReady(2000);
    const store = new RedisStateStore({
      redis: connection.client as Redis,
      maxTailChars: 32,
      commandTimeoutMs: 200,
    });
    const callId = randomUUID();

    await store.set(callId, `${'word '.repeat(1000)}end`, 10_000);
    const stored = await raw.get(`${REDIS_KEY_PREFIX}${callId}`);
    expect(stored?.length).toBeLessThanOrEqual(32);
    expect(stored?.endsWith(' word end')).toBe(true);
  });

  it('answers without a tail, fast, when Redis is unreachable', async () => {
    const deadUrl = `redis://127.0.0.1:${await freePort()}`;
    // A command timeout far past jest's: a feed that waited on Redis instead of failing at once hangs.
    const { sut, connection } = await replica(deadUrl, {
      redisConnectTimeoutMs: 100,
      redisTimeoutMs: 3_600_000,
    });
    closers.push(() => connection.close());

    await expect(sut.feed('call-1', 'my order number is')).resolves.toEqual({
      query: 'my order number is',
      tail: '',
      degraded: true,
    });
    await expect(sut.feed('call-1', 'ABC-12345')).resolves.toMatchObject({
      query: 'ABC-12345',
      degraded: true,
    });
  });

  it('degrades while Redis is down mid-call and recovers when it is back', async () => {
    const own = await spawnRedisServer();
    const { sut, connection } = await replica(own.url);
    closers.push(
      () => connection.close(),
      () => own.stop(),
    );

    await expect(sut.feed('call-1', 'my order')).resolves.toMatchObject({ degraded: false });
    await own.stop();
    await expect(sut.feed('call-1', 'number is')).resolves.toMatchObject({
      query: 'number is',
      degraded: true,
    });

    const restarted = await spawnRedisServer(own.port);
    closers.push(() => restarted.stop());
    await waitUntil('Redis is back', () => connection.status === 'ready', 5000);
    await sut.feed('call-1', 'my order number is');
    await expect(sut.feed('call-1', 'ABC-12345')).resolves.toEqual({
      query: 'my order number is ABC-12345',
      tail: 'my order number is',
      degraded: false,
    });
  });

  it('leaves the shared connection open when the store closes: it is not the store’s', async () => {
    const { sut, connection } = await replica(redis.url);
    closers.push(() => connection.close());
    await sut.onApplicationShutdown();
    expect(connection.status).toBe('ready');
  });
});
