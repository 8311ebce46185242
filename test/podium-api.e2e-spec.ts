import { PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { Redis } from 'ioredis';

import { generateApiKey } from '../src/config/api-key-entries';
import { type ContextBundle } from '../src/context/context.dto';
import {
  type FakePodium,
  podiumApiEnv,
  podiumContact,
  startFakePodium,
} from './fakes/podium-server';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { startRedis, type TestRedis } from './support/redis';
import { waitFor, waitUntil } from './support/wait';

const LOCATION = '3b8f6f7e-2a4c-4d3e-9b1a-5c6d7e8f9a01';
const OTHER_LOCATION = '7d1e2f3a-4b5c-4d6e-8f90-a1b2c3d4e5f6';
const ops = generateApiKey('ops');
/** A key of the business's second location only. */
const branch = generateApiKey('branch', [OTHER_LOCATION]);
const PAT_UID = 'c0ffee00-0000-4000-8000-00000000a11c';
const PAT_CONVERSATION = '5e0a1f2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b';

const PAT = podiumContact({
  uid: PAT_UID,
  name: 'Pat Doe',
  phone: '+15550199',
  email: 'pat@example.com',
  emailOptedOutAt: '2026-10-01T09:30:00Z',
  locationUids: [LOCATION],
  conversationUids: [PAT_CONVERSATION],
});

/** Another contact of the same business (its own phone), identified to the bridge by email. */
let phones = 1_000_000;
const customer = (email: string) =>
  podiumContact({ phone: `+1555${phones++}`, email, locationUids: [LOCATION] });

const HISTORY = [
  ['customer', 'When will my walnut dining table be delivered? It was due last Friday.'],
  ['agent', 'The walnut table ships from the warehouse on Monday; delivery is Wednesday.'],
].map(([sender, text], i) => ({
  conversation_uid: 'pat_delivery',
  contact_uid: 'pat@example.com',
  location_uid: LOCATION,
  channel: 'sms',
  occurred_at: new Date(Date.UTC(2026, 9, 2, 15, i)).toISOString(),
  sender,
  text,
}));

interface Ready {
  status: string;
  info: Record<string, { status: string; degraded?: boolean; reason?: string }>;
}

const as = (key: { key: string }) => ({ 'x-api-key': key.key });

describe('Podium api provider (e2e: real app against the loopback Podium, Redis cache)', () => {
  let t: TestApp;
  let podium: FakePodium;
  let redis: TestRedis;
  let raw: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    raw = new Redis(redis.url);
    // Rotation on: every refresh must present the refresh token the previous one returned.
    podium = await startFakePodium({ rotateRefreshTokens: true });
    podium.upsert(PAT);
    t = await bootTestApp({
      ...podiumApiEnv(podium),
      PODIUM_API_VERSION: '2021.04.01',
      PODIUM_BREAKER_FAILURES: '3',
      // The breaker test asserts nothing reaches Podium while it is open, over three calls:
      // 400 ms let a loaded box's calls outlast the cooldown and send the half-open probe.
      PODIUM_BREAKER_COOLDOWN_MS: '3000',
      REDIS_URL: redis.url,
      CONTEXT_MAX_INFLIGHT: '64',
      API_KEYS: [ops.line, branch.line].join(','),
    });
    const ingest = await postJson(`${t.url}/ingest/conversations`, HISTORY, as(ops));
    expect(ingest.status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await podium?.close();
    await raw?.quit();
    await redis?.stop();
  });

  const context = (body: Record<string, unknown>, key = ops) =>
    postJson<ContextBundle>(`${t.url}/context`, body, as(key));
  const ready = async () => {
    const response = await fetch(`${t.url}/health/ready`);
    return { status: response.status, body: (await response.json()) as Ready };
  };
  const requestsFor = (identifier: string) =>
    podium.contactRequests.filter((r) => r.identifier === identifier).length;
  const contacts = () => t.app.get<PodiumContacts>(PODIUM_CONTACTS);

  it('maps the live Podium contact into the bundle, from the real wire format', async () => {
    const res = await context({
      transcript: 'when is my walnut table arriving',
      contact_uid: 'pat@example.com',
    });
    expect(res.status).toBe(200);
    expect(res.body.contact).toEqual({
      phone: '+15550199',
      email: 'pat@example.com',
      opt_out_sms: false,
      opt_out_email: true,
      location_uid: LOCATION,
      last_seen_at: null,
      live_fields_available: true,
    });
    expect(res.body.meta).toMatchObject({ had_live_lookup: true, had_vector_hits: true });
    expect(podium.contactRequests).toEqual([
      {
        identifier: 'pat@example.com',
        authorization: expect.stringMatching(/^Bearer pat_/),
        podiumVersion: '2021.04.01',
      },
    ]);
    expect(podium.tokenRefreshes).toBe(1);
    expect((await ready()).body.info.podium).toEqual({ status: 'up' });
  });

  it('serves the next turns from Redis, holds no token there, and drops it on invalidate', async () => {
    // The cache write is not awaited by the lookup (the caller has its answer): let it land.
    await waitUntil(
      'the contact in Redis',
      async () => (await raw.exists('cb:podium:contact:pat@example.com')) === 1,
      5000,
    );
    const res = await context({ transcript: 'and what time?', contact_uid: 'pat@example.com' });
    expect(res.body.contact).toMatchObject({ phone: '+15550199', live_fields_available: true });
    expect(requestsFor('pat@example.com')).toBe(1);

    const keys = await raw.keys('cb:podium:*');
    expect(keys).toEqual(
      expect.arrayContaining(['cb:podium:contact:pat@example.com', `cb:podium:alias:${PAT_UID}`]),
    );
    const stored = (
      await Promise.all(
        (await raw.keys('cb:*')).map(async (k) =>
          (await raw.type(k)) === 'string' ? raw.get(k) : (await raw.smembers(k)).join(' '),
        ),
      )
    ).join('\n');
    for (const secret of [...podium.issuedSecrets(), podium.clientSecret]) {
      expect(stored).not.toContain(secret);
    }

    // The contact changes in Podium; a webhook invalidates by Podium's own uid.
    podium.upsert(
      podiumContact({
        uid: PAT_UID,
        phone: '+15550777',
        email: 'pat@example.com',
        locationUids: [LOCATION],
      }),
    );
    await contacts().invalidate(PAT_UID);
    expect(await raw.exists('cb:podium:contact:pat@example.com')).toBe(0);
    const fresh = await context({ transcript: 'and what time?', contact_uid: 'pat@example.com' });
    expect(fresh.body.contact).toMatchObject({ phone: '+15550777' });
    expect(requestsFor('pat@example.com')).toBe(2);
  });

  it('answers contact: { error: 404 } for a contact Podium does not know, history still filtered', async () => {
    const res = await context({
      transcript: 'when is my walnut table arriving',
      contact_uid: 'ghost@example.com',
    });
    expect(res.status).toBe(200);
    expect(res.body.contact).toEqual({ live_fields_available: false, error: 404 });
    expect(res.body.historical_excerpts).toEqual([]); // Pat's history never leaks to ghost
    expect(res.body.meta).toMatchObject({ had_live_lookup: false, partial: false });
  });

  it('checks every Podium location of a contact: a key bound to its second one reads it', async () => {
    podium.upsert(
      podiumContact({
        phone: '+15550777',
        email: 'multi@example.com',
        locationUids: [LOCATION, OTHER_LOCATION],
      }),
    );
    const res = await context({ transcript: 'hello', contact_uid: 'multi@example.com' }, branch);
    expect(res.status).toBe(200);
    // Labelled with the key's own location, not Podium's first one (another tenant's).
    expect(res.body.contact).toMatchObject({
      live_fields_available: true,
      email: 'multi@example.com',
      location_uid: OTHER_LOCATION,
    });
    // Pat is only in the first location: for this key, Pat reads like an unknown contact.
    const elsewhere = await context(
      { transcript: 'when is my walnut table arriving', contact_uid: 'pat@example.com' },
      branch,
    );
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body.contact).toEqual({ live_fields_available: false, error: 404 });
    expect(elsewhere.body.historical_excerpts).toEqual([]);
  });

  it('makes exactly one token refresh for 50 parallel /context calls with an expired token', async () => {
    const emails = Array.from({ length: 50 }, (_, i) => `caller${i}@example.com`);
    podium.upsert(customer('warm@example.com'), ...emails.map(customer));
    await context({ transcript: 'hello', contact_uid: 'warm@example.com' }); // a token in hand
    const expiredAuthorization = podium.contactRequests.at(-1)?.authorization;
    podium.expireAccessTokens();
    // A slow token endpoint keeps the refresh open while the other calls get their 401s.
    podium.tokenDelayMs = 300;
    const refreshesBefore = podium.tokenRequests;

    const bundles = await Promise.all(
      emails.map((email) =>
        context({
          transcript: 'I have a question about my order',
          contact_uid: email,
          timeout_ms: 5000,
        }),
      ),
    );

    podium.tokenDelayMs = 0;
    expect(podium.tokenRequests - refreshesBefore).toBe(1);
    expect(bundles.map((b) => b.body.contact.live_fields_available)).toEqual(
      emails.map(() => true),
    );
    // The expired token was really refused, and every call then used the one new token:
    // after the first 401 the others waited for that refresh instead of starting their own.
    const calls = podium.contactRequests.filter((r) => emails.includes(r.identifier));
    expect(calls.filter((r) => r.authorization === expiredAuthorization).length).toBeGreaterThan(0);
    const fresh = calls.filter((r) => r.authorization !== expiredAuthorization);
    expect(new Set(fresh.map((r) => r.identifier)).size).toBe(50);
    expect(new Set(fresh.map((r) => r.authorization)).size).toBe(1);
  });

  it('waits out a short 429 inside the deadline, and fails fast on a long one without hammering', async () => {
    podium.upsert(
      customer('r1@example.com'),
      customer('r2@example.com'),
      customer('r3@example.com'),
    );
    podium.script({ status: 429, retryAfter: '0' });
    // A deadline a loaded CI box cannot pass: this call is about the retry, not the clock.
    const retried = await context({
      transcript: 'order status',
      contact_uid: 'r1@example.com',
      timeout_ms: 5000,
    });
    expect(retried.body.contact).toMatchObject({ live_fields_available: true });
    expect(requestsFor('r1@example.com')).toBe(2);

    podium.script({ status: 429, retryAfter: '1' });
    const limited = await context({
      transcript: 'order status',
      contact_uid: 'r2@example.com',
      timeout_ms: 800,
    });
    expect(limited.body.contact).toEqual({ live_fields_available: false, error: 'unavailable' });
    // One request: the call did not wait out Retry-After to try again.
    expect(requestsFor('r2@example.com')).toBe(1);
    // Until Podium's second has passed, nothing is sent at all.
    const gated = await context({ transcript: 'order status', contact_uid: 'r3@example.com' });
    expect(gated.body.contact).toEqual({ live_fields_available: false, error: 'unavailable' });
    expect(requestsFor('r3@example.com')).toBe(0);
    const health = await ready();
    expect(health.status).toBe(200);
    expect(health.body.info.podium).toEqual({
      status: 'up',
      degraded: true,
      reason: 'rate_limited',
    });
    // Gated calls send nothing, so polling is free: the gate must open once the second passed.
    const after = await waitFor('the rate gate to open', async () => {
      const res = await context({ transcript: 'order status', contact_uid: 'r3@example.com' });
      return res.body.contact.live_fields_available ? res : undefined;
    });
    expect(after.body.contact).toMatchObject({ live_fields_available: true });
  });

  it('answers within timeout_ms + 25 ms with had_live_lookup: false while Podium hangs', async () => {
    podium.upsert(customer('h1@example.com'));
    podium.mode = 'hang';
    try {
      // Podium never answers: only the deadline ends the request (else jest's timeout).
      const res = await context({
        transcript: 'when is my walnut table arriving',
        contact_uid: 'h1@example.com',
        timeout_ms: 300,
      });
      expect(res.status).toBe(200);
      expect(res.body.contact).toEqual({ live_fields_available: false, error: 'timeout' });
      expect(res.body.meta).toMatchObject({ had_live_lookup: false, partial: true });
    } finally {
      podium.mode = 'normal';
    }
  });

  it('opens the breaker on 500s (Podium stops being called) and reports degraded, still 200', async () => {
    const emails = Array.from({ length: 7 }, (_, i) => `b${i}@example.com`);
    podium.upsert(...emails.map(customer));
    // A success first, so the earlier hang does not count towards this run of failures.
    await context({ transcript: 'hello', contact_uid: emails[0] });
    podium.mode = 'fail';
    for (const email of emails.slice(1, 4)) {
      const res = await context({ transcript: 'hello', contact_uid: email });
      expect(res.body.contact).toEqual({ live_fields_available: false, error: 'unavailable' });
    }
    const sent = podium.contactRequests.length;
    for (const email of emails.slice(4)) {
      const res = await context({ transcript: 'hello', contact_uid: email });
      expect(res.body.contact).toEqual({ live_fields_available: false, error: 'unavailable' });
    }
    expect(podium.contactRequests).toHaveLength(sent); // fails fast: nothing reaches Podium

    const degraded = await ready();
    expect(degraded.status).toBe(200);
    expect(degraded.body.status).toBe('ok');
    expect(degraded.body.info).toMatchObject({
      database: { status: 'up' },
      podium: { status: 'up', degraded: true, reason: 'circuit_open' },
    });

    // Podium recovers; after the cooldown one probe goes through and closes the breaker.
    // While it is open, calls fail fast (nothing sent), so poll until the probe went through.
    podium.mode = 'normal';
    const probe = await waitFor('the half-open probe', async () => {
      const res = await context({ transcript: 'hello', contact_uid: emails[6] });
      return res.body.contact.live_fields_available ? res : undefined;
    });
    expect(probe.body.contact).toMatchObject({ live_fields_available: true });
    expect(podium.contactRequests).toHaveLength(sent + 1); // the one probe
    expect((await ready()).body.info.podium).toEqual({ status: 'up' });
  });

  it('degrades to a vector-only bundle when Podium rejects the refresh token, and readiness says so', async () => {
    await contacts().invalidate('pat@example.com');
    podium.rejectRefreshTokens = true;
    podium.expireAccessTokens();
    const before = podium.tokenRequests;

    const res = await context({
      transcript: 'when is my walnut table arriving',
      contact_uid: 'pat@example.com',
    });
    expect(res.status).toBe(200);
    expect(res.body.contact).toEqual({ live_fields_available: false, error: 401 });
    expect(res.body.meta).toMatchObject({ had_vector_hits: true, had_live_lookup: false });
    expect(res.body.historical_excerpts[0].content).toContain('walnut');

    const health = await ready();
    expect(health.status).toBe(200);
    expect(health.body.info.podium).toEqual({
      status: 'up',
      degraded: true,
      reason: 'auth_rejected',
    });
    // A rejected refresh token is not retried on every call.
    await context({ transcript: 'hello?', contact_uid: 'pat@example.com' });
    expect(podium.tokenRequests - before).toBe(1);
  });
});
