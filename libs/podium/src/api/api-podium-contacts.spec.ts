import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';

import {
  type FakePodium,
  podiumContact,
  startFakePodium,
} from '../../../../test/fakes/podium-server';
import { fakeDateOnly } from '../../../../test/support/fake-clock';
import { spawnRedisServer, type TestRedis } from '../../../../test/support/redis';
import { waitFor } from '../../../../test/support/wait';
import { PodiumAuthError } from '../interfaces/podium-contacts.interface';
import { ApiPodiumContacts } from './api-podium-contacts';
import { MemoryContactCache } from './cache/memory-contact-cache';
import { CONTACT_KEY_PREFIX, RedisContactCache } from './cache/redis-contact-cache';
import {
  PodiumCallerDeadlineError,
  PodiumCircuitOpenError,
  PodiumRateLimitedError,
  PodiumUnavailableError,
} from './podium-api.errors';
import { type PodiumApiOptions, resolvePodiumApiOptions } from './podium-api.options';

const PAT = podiumContact({
  uid: 'c0ffee00-0000-4000-8000-000000000001',
  phone: '+15550199',
  email: 'pat@example.com',
  locationUids: ['loc-1'],
  conversationUids: ['conv-1'],
});

describe('ApiPodiumContacts (against the loopback Podium)', () => {
  let podium: FakePodium;
  let clock: number;
  const open: ApiPodiumContacts[] = [];

  beforeEach(async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'debug').mockImplementation(() => undefined);
    podium = await startFakePodium();
    podium.upsert(PAT);
    clock = Date.now();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.onModuleDestroy()));
    jest.restoreAllMocks();
    jest.useRealTimers();
    await podium.close();
  });

  /** The client under test; `now` is the test's clock, for the cache and the rate gate. */
  const build = (overrides: Partial<PodiumApiOptions> = {}) => {
    const options = resolvePodiumApiOptions({
      baseUrl: podium.baseUrl,
      tokenUrl: podium.tokenUrl,
      clientId: podium.clientId,
      clientSecret: podium.clientSecret,
      refreshToken: podium.refreshToken,
      cacheTtlMs: 0,
      breakerFailures: 3,
      breakerCooldownMs: 200,
      ...overrides,
    });
    const sut = new ApiPodiumContacts(options, {
      cache: new MemoryContactCache({ maxEntries: 100, perf: { now: () => clock } }),
      now: () => clock,
    });
    open.push(sut);
    return sut;
  };

  it('looks a contact up by URL-encoded identifier with a bearer token and podium-version', async () => {
    const sut = build({ apiVersion: '2021.04.01' });
    await expect(sut.getContact('pat@example.com')).resolves.toEqual({
      status: 'found',
      contact: expect.objectContaining({ phone: '+15550199', location_uid: 'loc-1' }),
    });
    expect(podium.contactRequests).toEqual([
      {
        identifier: 'pat@example.com',
        authorization: expect.stringMatching(/^Bearer pat_/),
        podiumVersion: '2021.04.01',
      },
    ]);
  });

  it('answers not_found for a 404 resource_not_found', async () => {
    await expect(build().getContact('nobody@example.com')).resolves.toEqual({
      status: 'not_found',
    });
  });

  it('refreshes once and retries once on a 401, then gives up with an auth error', async () => {
    const sut = build();
    await sut.getContact('pat@example.com');
    podium.script({ status: 401 });
    await expect(sut.getContact('pat@example.com')).resolves.toMatchObject({ status: 'found' });
    expect(podium.tokenRefreshes).toBe(2);
    expect(podium.contactRequests).toHaveLength(3);

    podium.script({ status: 401 }, { status: 401 });
    await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(PodiumAuthError);
    expect(podium.tokenRefreshes).toBe(3); // one renewal, not a loop
    expect(podium.contactRequests).toHaveLength(5);
    await expect(sut.status()).resolves.toEqual({ status: 'degraded', reason: 'auth_rejected' });
    await sut.getContact('pat@example.com');
    await expect(sut.status()).resolves.toEqual({ status: 'up' });
  });

  it('degrades to auth_rejected when Podium rejects the refresh token', async () => {
    podium.rejectRefreshTokens = true;
    const sut = build();
    await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(PodiumAuthError);
    await expect(sut.isHealthy()).resolves.toBe(false);
    await expect(sut.status()).resolves.toEqual({ status: 'degraded', reason: 'auth_rejected' });
    expect(podium.contactRequests).toHaveLength(0);
  });

  describe('circuit breaker', () => {
    it('opens after consecutive 5xx, fails fast without requests, then probes once', async () => {
      const date = fakeDateOnly(); // the breaker's cooldown reads Date.now()
      const sut = build({ breakerFailures: 3, breakerCooldownMs: 150 });
      await sut.getContact('pat@example.com'); // token in hand
      podium.mode = 'fail';
      for (let i = 0; i < 3; i++) {
        await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
          PodiumUnavailableError,
        );
      }
      const sent = podium.contactRequests.length;
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumCircuitOpenError,
      );
      expect(podium.contactRequests).toHaveLength(sent);
      await expect(sut.status()).resolves.toEqual({ status: 'degraded', reason: 'circuit_open' });

      // After the cooldown one probe goes out; calls during it fail fast instead of queueing.
      podium.mode = 'normal';
      let answerProbe!: () => void;
      podium.script({ answerAfter: new Promise<void>((resolve) => (answerProbe = resolve)) });
      date.advance(149);
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumCircuitOpenError,
      );
      expect(podium.contactRequests).toHaveLength(sent);
      date.advance(1);
      const probe = sut.getContact('pat@example.com');
      await waitFor('the probe at Podium', () =>
        Promise.resolve(podium.contactRequests.length > sent || undefined),
      );
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumCircuitOpenError,
      );
      answerProbe();
      await expect(probe).resolves.toMatchObject({ status: 'found' });
      expect(podium.contactRequests).toHaveLength(sent + 1);
      await expect(sut.status()).resolves.toEqual({ status: 'up' });
    });

    it('re-opens when the half-open probe fails', async () => {
      const date = fakeDateOnly(); // the breaker's cooldown reads Date.now()
      const sut = build({ breakerFailures: 1, breakerCooldownMs: 100 });
      podium.mode = 'fail';
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumUnavailableError,
      );
      date.advance(100);
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumUnavailableError,
      );
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumCircuitOpenError,
      );
    });

    it('counts timeouts, but not 404s', async () => {
      const sut = build({ breakerFailures: 2 });
      for (let i = 0; i < 5; i++) {
        await expect(sut.getContact(`unknown-${i}@example.com`)).resolves.toEqual({
          status: 'not_found',
        });
      }
      podium.mode = 'hang';
      for (let i = 0; i < 2; i++) {
        await expect(
          sut.getContact('pat@example.com', AbortSignal.timeout(300)),
        ).rejects.toBeInstanceOf(PodiumUnavailableError);
      }
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumCircuitOpenError,
      );
    });
  });

  it('counts a token endpoint that misses the deadline, but not a caller already out of time', async () => {
    const sut = build({ breakerFailures: 1 });
    const gone = new AbortController();
    gone.abort();
    await expect(sut.getContact('pat@example.com', gone.signal)).rejects.toMatchObject({
      name: 'AbortError',
    });
    await expect(sut.status()).resolves.toEqual({ status: 'up' });

    podium.tokenDelayMs = 600;
    await expect(
      sut.getContact('pat@example.com', AbortSignal.timeout(300)),
    ).rejects.toBeInstanceOf(PodiumUnavailableError);
    await expect(sut.status()).resolves.toEqual({ status: 'degraded', reason: 'circuit_open' });
    expect(podium.contactRequests).toHaveLength(0);
  });

  it('does not let a caller deadline too short to judge Podium open the breaker', async () => {
    podium.delayMs = 150;
    const sut = build({ breakerFailures: 1 });
    for (let i = 0; i < 5; i++) {
      await expect(
        sut.getContact('pat@example.com', AbortSignal.timeout(50)),
      ).rejects.toBeInstanceOf(PodiumCallerDeadlineError);
    }
    await expect(sut.status()).resolves.toEqual({ status: 'up' });
    await expect(sut.getContact('pat@example.com')).resolves.toMatchObject({ status: 'found' });
  });

  it('stops at the deadline while Podium hangs', async () => {
    podium.mode = 'hang';
    // No request ceiling to fall back on: if the caller's deadline were ignored, this hangs.
    const sut = build({ requestTimeoutMs: 3_600_000 });
    await expect(
      sut.getContact('pat@example.com', AbortSignal.timeout(100)),
    ).rejects.toBeInstanceOf(PodiumCallerDeadlineError);
  });

  describe('429 rate_limit', () => {
    it('waits out a short Retry-After and retries once', async () => {
      const sut = build();
      podium.script({ status: 429, retryAfter: '0' });
      await expect(sut.getContact('pat@example.com')).resolves.toMatchObject({ status: 'found' });
      expect(podium.contactRequests).toHaveLength(2);
    });

    it('fails fast when the wait does not fit, and sends nothing until it has passed', async () => {
      const sut = build();
      podium.script({ status: 429, retryAfter: '30' });
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumRateLimitedError,
      );
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumRateLimitedError,
      );
      expect(podium.contactRequests).toHaveLength(1);
      await expect(sut.status()).resolves.toEqual({ status: 'degraded', reason: 'rate_limited' });
      clock += 30_000;
      await expect(sut.getContact('pat@example.com')).resolves.toMatchObject({ status: 'found' });
    });

    it('does not count towards the breaker', async () => {
      const sut = build({ breakerFailures: 1 });
      podium.script({ status: 429, retryAfter: '1' });
      await expect(sut.getContact('pat@example.com')).rejects.toBeInstanceOf(
        PodiumRateLimitedError,
      );
      clock += 1_000;
      await expect(sut.getContact('pat@example.com')).resolves.toMatchObject({ status: 'found' });
    });
  });

  describe('cache', () => {
    it('serves repeats for the TTL, then asks Podium again', async () => {
      const sut = build({ cacheTtlMs: 30_000 });
      await sut.getContact('pat@example.com');
      await sut.getContact('pat@example.com');
      expect(podium.contactRequests).toHaveLength(1);
      clock += 30_001;
      await sut.getContact('pat@example.com');
      expect(podium.contactRequests).toHaveLength(2);
    });

    it('drops the entry on invalidate by any identifier of the contact', async () => {
      const sut = build({ cacheTtlMs: 30_000 });
      await sut.getContact('pat@example.com');
      podium.upsert(podiumContact({ uid: PAT.uid, phone: '+15550777', email: 'pat@example.com' }));
      await sut.invalidate(PAT.uid); // what a contact.updated webhook carries
      await expect(sut.getContact('pat@example.com')).resolves.toMatchObject({
        contact: { phone: '+15550777' },
      });
      expect(podium.contactRequests).toHaveLength(2);
      await sut.invalidate('conv-1'); // or a conversation uid (message webhooks)
      await sut.getContact('pat@example.com');
      expect(podium.contactRequests).toHaveLength(3);
    });

    it('keeps not-found answers only briefly', async () => {
      const sut = build({ cacheTtlMs: 30_000, notFoundTtlMs: 5_000 });
      await sut.getContact('new@example.com');
      await sut.getContact('new@example.com');
      expect(podium.contactRequests).toHaveLength(1);
      clock += 5_001;
      await sut.getContact('new@example.com');
      expect(podium.contactRequests).toHaveLength(2);
    });

    it('does not cache an answer that an invalidation overtook', async () => {
      const sut = build({ cacheTtlMs: 30_000 });
      let answer!: () => void;
      podium.script({ answerAfter: new Promise<void>((resolve) => (answer = resolve)) });
      const inFlight = sut.getContact('pat@example.com');
      await waitFor('the lookup at Podium', () =>
        Promise.resolve(podium.contactRequests.length === 1 || undefined),
      );
      await sut.invalidate(PAT.uid);
      answer();
      await inFlight;
      await sut.getContact('pat@example.com');
      expect(podium.contactRequests).toHaveLength(2);
    });

    it('is off at TTL 0', async () => {
      const sut = build({ cacheTtlMs: 0 });
      await sut.getContact('pat@example.com');
      await sut.getContact('pat@example.com');
      expect(podium.contactRequests).toHaveLength(2);
    });
  });

  describe('with a shared Redis cache that refuses the delete (real redis-server)', () => {
    let redis: TestRedis;
    let admin: Redis;
    let limited: Redis;

    beforeEach(async () => {
      redis = await spawnRedisServer();
      admin = new Redis(redis.url);
      // A user that may read and write the cache but not delete from it: what an
      // invalidation meets when Redis refuses DEL (an ACL, a renamed command, OOM on a replica).
      await admin.acl(
        'SETUSER',
        'cache',
        'on',
        '>cache-pw',
        '~*',
        '&*',
        '+@all',
        '-del',
        '-unlink',
      );
      limited = new Redis(`redis://cache:cache-pw@127.0.0.1:${redis.port}`, {
        maxRetriesPerRequest: 0,
      });
    });
    afterEach(async () => {
      limited.disconnect();
      admin.disconnect();
      await redis.stop();
    });

    it('fails the invalidation instead of reporting it done while Redis still serves the contact', async () => {
      const options = resolvePodiumApiOptions({
        baseUrl: podium.baseUrl,
        tokenUrl: podium.tokenUrl,
        clientId: podium.clientId,
        clientSecret: podium.clientSecret,
        refreshToken: podium.refreshToken,
        cacheTtlMs: 30_000,
      });
      const sut = new ApiPodiumContacts(options, { cache: new RedisContactCache(limited) });
      open.push(sut);
      await sut.getContact('pat@example.com');
      expect(await admin.exists(`${CONTACT_KEY_PREFIX}pat@example.com`)).toBe(1);

      await expect(sut.invalidate('pat@example.com')).rejects.toMatchObject({
        code: 'contact_cache_failed',
        httpStatus: 503,
      });
      // The live fields are still there: a webhook must not be marked done on this.
      expect(await admin.exists(`${CONTACT_KEY_PREFIX}pat@example.com`)).toBe(1);
    });
  });
});
