import { RedisConnection } from '@app/redis';
import { Redis } from 'ioredis';

import { startRedis, type TestRedis } from '../../../../../test/support/redis';
import { waitUntil } from '../../../../../test/support/wait';
import { type ContactLookup, type LiveContact } from '../../interfaces/podium-contacts.interface';
import { type ContactCache } from './contact-cache';
import { MemoryContactCache } from './memory-contact-cache';
import {
  ALIAS_KEY_PREFIX,
  CONTACT_KEY_PREFIX,
  INVALIDATED_KEY_PREFIX,
  RedisContactCache,
} from './redis-contact-cache';

const FOUND: ContactLookup = {
  status: 'found',
  contact: {
    contact_uid: 'pat@example.com',
    phone: '+15550199',
    email: 'pat@example.com',
    opt_out_sms: false,
    opt_out_email: true,
    location_uid: 'loc-1',
    last_seen_at: null,
    location_uids: ['loc-1'],
  },
};

/** The contract both caches keep; `outlive` returns once the entry for `key` (TTL `ms`) expired. */
function behavesLikeAContactCache(
  make: () => Promise<ContactCache>,
  outlive: (key: string, ms: number) => Promise<void>,
): void {
  let sut: ContactCache;
  beforeEach(async () => {
    sut = await make();
  });
  afterEach(() => sut.close());

  it('returns what was set, until its TTL passes', async () => {
    await sut.set('pat@example.com', FOUND, 150, []);
    await expect(sut.get('pat@example.com')).resolves.toEqual(FOUND);
    await outlive('pat@example.com', 150);
    await expect(sut.get('pat@example.com')).resolves.toBeUndefined();
  });

  it('invalidates by the key or by any alias', async () => {
    await sut.set('pat@example.com', FOUND, 10_000, ['uid-1', '+15550199', 'pat@example.com']);
    await sut.set('+15550199', FOUND, 10_000, ['uid-1', 'pat@example.com']);
    await sut.invalidate('uid-1');
    await expect(sut.get('pat@example.com')).resolves.toBeUndefined();
    await expect(sut.get('+15550199')).resolves.toBeUndefined();

    await sut.set('pat@example.com', FOUND, 10_000, ['uid-1']);
    await sut.invalidate('pat@example.com');
    await expect(sut.get('pat@example.com')).resolves.toBeUndefined();
  });

  it('keeps other contacts when one is invalidated', async () => {
    await sut.set('a@example.com', FOUND, 10_000, ['uid-a']);
    await sut.set('b@example.com', { status: 'not_found' }, 10_000, []);
    await sut.invalidate('uid-a');
    await expect(sut.get('b@example.com')).resolves.toEqual({ status: 'not_found' });
  });

  it('refuses to write back a lookup read before an invalidation of it or an alias', async () => {
    const before = await sut.read('pat@example.com');
    expect(before.lookup).toBeUndefined();
    await sut.invalidate('uid-1'); // e.g. contact.deleted while the lookup was in flight
    await expect(sut.set('pat@example.com', FOUND, 10_000, ['uid-1'], before.stamp)).resolves.toBe(
      false,
    );
    await expect(sut.get('pat@example.com')).resolves.toBeUndefined();

    const after = await sut.read('pat@example.com');
    await expect(sut.set('pat@example.com', FOUND, 10_000, ['uid-1'], after.stamp)).resolves.toBe(
      true,
    );
    await expect(sut.read('pat@example.com')).resolves.toMatchObject({ lookup: FOUND });
  });
}

describe('MemoryContactCache', () => {
  let clock = 1_000_000; // lru-cache treats a start time of 0 as "no TTL"
  behavesLikeAContactCache(
    () => Promise.resolve(new MemoryContactCache({ maxEntries: 100, perf: { now: () => clock } })),
    (_key, ms) => {
      clock += ms + 1;
      return Promise.resolve();
    },
  );

  it('evicts the least recently used entry past maxEntries', async () => {
    const sut = new MemoryContactCache({ maxEntries: 2 });
    await sut.set('a', FOUND, 10_000, []);
    await sut.set('b', FOUND, 10_000, []);
    await sut.get('a');
    await sut.set('c', FOUND, 10_000, []);
    await expect(sut.get('b')).resolves.toBeUndefined();
    await expect(sut.get('a')).resolves.toEqual(FOUND);
  });

  it('is bounded in bytes too: long caller-chosen keys evict before maxEntries', async () => {
    const sut = new MemoryContactCache({ maxEntries: 10 });
    const key = (i: number) => `ctc_${i}_`.padEnd(10_000, 'x');
    for (let i = 0; i < 10; i++) {
      await sut.set(key(i), FOUND, 10_000, []);
    }
    await expect(sut.get(key(9))).resolves.toEqual(FOUND);
    await expect(sut.get(key(0))).resolves.toBeUndefined();
  });

  it('bounds its alias index in bytes: long aliases evict, and take their entries along', async () => {
    const sut = new MemoryContactCache({ maxEntries: 10 });
    const alias = (i: number) => `ali_${i}_`.padEnd(10_000, 'x');
    for (let i = 0; i < 10; i++) {
      // 10 short entries fit their own budget; 10 aliases are far below the count of 80.
      await sut.set(`c${i}`, FOUND, 10_000, [alias(i)]);
    }
    await expect(sut.get('c0')).resolves.toBeUndefined();
    await expect(sut.get('c9')).resolves.toEqual(FOUND);
    await sut.invalidate(alias(9));
    await expect(sut.get('c9')).resolves.toBeUndefined();
  });

  it('bounds its invalidation marks in bytes, refusing write-backs older than a mark it forgot', async () => {
    const sut = new MemoryContactCache({ maxEntries: 10 });
    const id = (i: number) => `ctc_${i}_`.padEnd(10_000, 'x');
    const before = await sut.read('other@example.com');
    for (let i = 0; i < 3; i++) {
      await sut.invalidate(id(i)); // webhook-supplied ids, far below the count of 80
    }
    // The first mark is gone: a lookup read before it may be of that id, so it is not kept.
    await expect(sut.set('other@example.com', FOUND, 10_000, [], before.stamp)).resolves.toBe(
      false,
    );
    const after = await sut.read('other@example.com');
    await expect(sut.set('other@example.com', FOUND, 10_000, [], after.stamp)).resolves.toBe(true);
  });

  it('keeps short invalidation marks up to its count, refusing only write-backs they concern', async () => {
    const sut = new MemoryContactCache({ maxEntries: 10 });
    const before = await sut.read('other@example.com');
    for (let i = 0; i < 80; i++) {
      await sut.invalidate(`ctc_${i}`);
    }
    await expect(sut.set('ctc_0', FOUND, 10_000, [], before.stamp)).resolves.toBe(false);
    await expect(sut.set('other@example.com', FOUND, 10_000, [], before.stamp)).resolves.toBe(true);
  });

  it('never keeps an entry that an invalidate by one of its aliases could miss', async () => {
    const sut = new MemoryContactCache({ maxEntries: 2 });
    const ids = (n: number) => Array.from({ length: 12 }, (_, i) => `c${n}-alias-${i}`);
    await sut.set('c1', FOUND, 10_000, ids(1));
    await sut.set('c2', FOUND, 10_000, ids(2)); // 24 aliases overflow the index of 16
    await sut.invalidate('c1-alias-0');
    await expect(sut.get('c1')).resolves.toBeUndefined();
    await sut.invalidate('c2-alias-11');
    await expect(sut.get('c2')).resolves.toBeUndefined();
  });
});

describe('RedisContactCache (real redis-server)', () => {
  let redis: TestRedis;
  let raw: Redis;
  let connection: RedisConnection;

  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.url);
    connection = new RedisConnection({ url: redis.url });
    await connection.waitUntilReady(2000);
  });
  afterAll(async () => {
    await connection.close();
    await raw.quit();
    await redis.stop();
  });
  beforeEach(async () => {
    const keys = await raw.keys('cb:podium:*');
    if (keys.length > 0) {
      await raw.del(...keys);
    }
  });

  const connected = () => new RedisContactCache(connection.client as Redis);

  describe('contract', () => {
    behavesLikeAContactCache(
      () => Promise.resolve(connected()),
      // Redis expires the key on its own clock: poll until it did (hangs if no TTL was set).
      (key) =>
        waitUntil(
          'Redis expired the entry',
          async () => (await raw.exists(CONTACT_KEY_PREFIX + key)) === 0,
        ),
    );
  });

  it('shares the write-back guard: an invalidation on one replica stops another’s write-back', async () => {
    const replicaA = connected();
    const replicaB = new RedisContactCache(raw); // another process's client, same server
    const missed = await replicaB.read('pat@example.com');
    await replicaA.invalidate('pat@example.com');
    await expect(
      replicaB.set('pat@example.com', FOUND, 10_000, ['uid-1'], missed.stamp),
    ).resolves.toBe(false);
    await expect(replicaA.get('pat@example.com')).resolves.toBeUndefined();
    expect(await raw.pttl(`${INVALIDATED_KEY_PREFIX}pat@example.com`)).toBeGreaterThan(0);
  });

  it('stores the lookup as JSON with a TTL, and aliases as sets', async () => {
    const sut = connected();
    await sut.set('pat@example.com', FOUND, 30_000, ['uid-1']);
    expect(JSON.parse((await raw.get(`${CONTACT_KEY_PREFIX}pat@example.com`)) ?? '')).toEqual(
      FOUND,
    );
    expect(await raw.pttl(`${CONTACT_KEY_PREFIX}pat@example.com`)).toBeGreaterThan(29_000);
    expect(await raw.smembers(`${ALIAS_KEY_PREFIX}uid-1`)).toEqual(['pat@example.com']);
    expect(await raw.pttl(`${ALIAS_KEY_PREFIX}uid-1`)).toBeGreaterThan(29_000);
    await sut.close();
  });

  it('treats garbage under a key as a miss', async () => {
    const sut = connected();
    await raw.set(`${CONTACT_KEY_PREFIX}x`, '{"status":"found"}');
    await expect(sut.get('x')).resolves.toBeUndefined();
    await raw.set(`${CONTACT_KEY_PREFIX}y`, 'not json');
    await expect(sut.get('y')).resolves.toBeUndefined();
    await sut.close();
  });

  it('reads an entry cached before `location_uids` existed as its one location', async () => {
    const sut = connected();
    const older: Partial<LiveContact> = { ...(FOUND as { contact: LiveContact }).contact };
    delete older.location_uids;
    await raw.set(`${CONTACT_KEY_PREFIX}old`, JSON.stringify({ status: 'found', contact: older }));
    await expect(sut.get('old')).resolves.toEqual(FOUND);
    await sut.close();
  });

  it('misses at once, without throwing, when Redis is unreachable', async () => {
    const down = new RedisConnection({ url: 'redis://127.0.0.1:9' });
    const sut = new RedisContactCache(down.client as Redis);
    await expect(down.waitUntilReady(100)).resolves.toBe(false);
    await expect(sut.get('pat@example.com')).resolves.toBeUndefined();
    // A write is refused, not queued for a Redis that may never come back.
    await expect(sut.set('pat@example.com', FOUND, 1000, [])).rejects.toThrow(
      "Stream isn't writeable",
    );
    await down.close();
  });
});
