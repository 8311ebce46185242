import { type IncomingMessage, request as httpRequest } from 'node:http';

import { type LocalPodiumContacts, PODIUM_CONTACTS } from '@app/podium';

import { loadJose } from '../src/auth/jose';
import { generateApiKey, hashApiKey } from '../src/config/api-key-entries';
import { type ContextBundle } from '../src/context/context.dto';
import { slots } from '../src/ingest/ingest-slot';
import { type SearchResponseDto } from '../src/retrieval/search.dto';
import { bootTestAppWith, postJson, type TestApp } from './support/app';
import { ChatProbeModule, HISTORY, message } from './support/auth-fixtures';
import { waitUntil } from './support/wait';

const SECRET = 'chat-jwt-secret-for-the-e2e-test-0123456789';
const tenantA = generateApiKey('tenant-a', ['loc_a']);
const tenantB = generateApiKey('tenant-b', ['loc_b']);
const ops = generateApiKey('ops');
const burst = generateApiKey('burst');
const PER_KEY = 40;
const PER_IP = 40;

describe('service auth, tenant scoping, chat identity, limits (e2e)', () => {
  let t: TestApp;
  const as = (key: { key: string }) => ({ 'x-api-key': key.key });
  const post = <T = Record<string, unknown>>(
    path: string,
    body: unknown,
    headers: Record<string, string> = {},
  ) => postJson<T>(`${t.url}${path}`, body, headers);

  beforeAll(async () => {
    t = await bootTestAppWith(
      {
        API_KEYS: [tenantA.line, tenantB.line, ops.line, burst.line].join(','),
        RATE_LIMIT_PER_KEY_PER_MINUTE: String(PER_KEY),
        RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP),
        CHAT_AUTH: 'jwt',
        CHAT_JWT_SECRET: SECRET,
        CORS_ORIGINS: 'https://app.example.com',
        METRICS_REQUIRE_KEY: 'true',
        INGEST_MAX_INFLIGHT: '1',
        // One proxy in front (the test client plays it); requests without the header are
        // counted by their socket address as before.
        TRUST_PROXY: 'true',
      },
      [ChatProbeModule],
    );
    const ingest = await post('/ingest/conversations', HISTORY, as(ops));
    expect(ingest.status).toBe(200);
    await t.app.get<LocalPodiumContacts>(PODIUM_CONTACTS).upsert(
      ['ctc_a1', 'ctc_b1'].map((contact_uid) => ({
        contact_uid,
        phone: null,
        email: null,
        opt_out_sms: false,
        opt_out_email: false,
        location_uid: contact_uid === 'ctc_a1' ? 'loc_a' : 'loc_b',
        last_seen_at: null,
      })),
    );
  });
  afterAll(() => t?.close());

  describe('API keys', () => {
    const PROTECTED: Array<[string, unknown]> = [
      ['/context', { transcript: 'leaking machine', contact_uid: 'ctc_a1' }],
      ['/context/prompt', { transcript: 'leaking machine' }],
      ['/search', { query: 'leaking machine' }],
      ['/relevance', { query: 'a', candidate: 'b' }],
      ['/redact', { text: 'call 555 0100' }],
      ['/ingest/conversations', HISTORY.slice(0, 1)],
      ['/ingest/kb', []],
    ];

    it('answers 401 missing_api_key without a key, on every internal endpoint', async () => {
      for (const [path, body] of PROTECTED) {
        const res = await post(path, body);
        expect({ path, status: res.status, error: res.body.error }).toEqual({
          path,
          status: 401,
          error: 'missing_api_key',
        });
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
        expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
      }
      const metrics = await fetch(`${t.url}/metrics`);
      expect(metrics.status).toBe(401); // METRICS_REQUIRE_KEY=true
    });

    it('answers 401 invalid_api_key for a wrong key, in either header, or its hash', async () => {
      const wrong: Array<Record<string, string>> = [
        { 'x-api-key': 'cb_not-a-key' },
        { authorization: 'Bearer cb_not-a-key' },
        { 'x-api-key': hashApiKey(ops.key) },
        { authorization: `Basic ${ops.key}` },
      ];
      for (const headers of wrong) {
        for (const path of ['/search', '/ingest/conversations']) {
          const res = await post(path, { query: 'x' }, headers);
          expect({ path, status: res.status, error: res.body.error }).toEqual({
            path,
            status: 401,
            error: 'invalid_api_key',
          });
        }
      }
    });

    it('lets a valid key through as Bearer or x-api-key; public routes need none', async () => {
      const bearer = await post<SearchResponseDto>(
        '/search',
        { query: 'leaking espresso machine', top_k: 10 },
        { authorization: `Bearer ${ops.key}` },
      );
      expect(bearer.status).toBe(200);
      expect(new Set(bearer.body.hits.map((h) => h.contact_uid))).toEqual(
        new Set(['ctc_a1', 'ctc_b1', 'ctc_ghost']),
      );
      expect((await post('/redact', { text: 'hi' }, as(ops))).status).toBe(200);
      expect((await fetch(`${t.url}/metrics`, { headers: as(ops) })).status).toBe(200);
      expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
      expect((await fetch(`${t.url}/docs/json`)).status).toBe(200);
      // The signed webhook and the employee app's chat have their own guards.
      for (const path of ['/webhooks/podium', '/chat']) {
        const res = await post(path, {});
        expect({ path, error: res.body.error }).not.toEqual({ path, error: 'missing_api_key' });
      }
    });
  });

  describe('tenant scoping', () => {
    it('gives a location-A key its own contact', async () => {
      const res = await post<ContextBundle>(
        '/context',
        { transcript: 'my espresso machine is leaking', contact_uid: 'ctc_a1' },
        as(tenantA),
      );
      expect(res.status).toBe(200);
      expect(res.body.contact).toMatchObject({
        live_fields_available: true,
        location_uid: 'loc_a',
      });
      expect(res.body.historical_excerpts.length).toBeGreaterThan(0);
    });

    it('answers 403 to a location-A key naming location B, and leaks no excerpt', async () => {
      const requests: Array<[string, Record<string, unknown>]> = [
        ['/context', { transcript: 'espresso machine leaking', location_uid: 'loc_b' }],
        ['/search', { query: 'espresso machine leaking', location_uid: 'loc_b' }],
        [
          '/context/prompt',
          {
            transcript: 'espresso machine leaking',
            location_uid: 'loc_b',
            bundle: { contact: { live_fields_available: false }, historical_excerpts: [] },
          },
        ],
      ];
      for (const [path, body] of requests) {
        const res = await post(path, body, as(tenantA));
        expect({ path, body, status: res.status, error: res.body.error }).toEqual({
          path,
          body,
          status: 403,
          error: 'location_forbidden',
        });
        expect(JSON.stringify(res.body)).not.toContain('B-SECRET');
      }
    });

    it('answers a location-A key the same for a location-B contact as for an unknown one', async () => {
      const answer = async (path: string, contact_uid: string) => {
        const res = await post<Record<string, unknown>>(
          path,
          path === '/search'
            ? { query: 'espresso machine leaking', contact_uid }
            : { transcript: 'espresso machine leaking', contact_uid },
          as(tenantA),
        );
        expect(JSON.stringify(res.body)).not.toContain('B-SECRET');
        // Everything but what legitimately differs per call (ids, timings, the echoed uid).
        const body = res.body as { contact?: unknown; historical_excerpts?: unknown[] };
        return {
          status: res.status,
          contact: body.contact,
          excerpts: body.historical_excerpts,
          hits: (res.body as { hits?: unknown[] }).hits,
          user: res.body.user,
        };
      };
      for (const path of ['/context', '/context/prompt', '/search']) {
        const elsewhere = await answer(path, 'ctc_b1');
        expect({ path, ...elsewhere }).toEqual({ path, ...(await answer(path, 'ctc_ghost')) });
        expect(elsewhere.status).toBe(200);
      }
      // The owner reads it fine.
      const owner = await post<ContextBundle>(
        '/context',
        { transcript: 'espresso machine leaking', contact_uid: 'ctc_b1' },
        as(tenantB),
      );
      expect(owner.status).toBe(200);
      expect(owner.body.contact).toMatchObject({ live_fields_available: true });
      expect(JSON.stringify(owner.body.historical_excerpts)).toContain('B-SECRET');
    });

    it('filters inside the store: no other tenant’s rows, even for a contact no CRM knows', async () => {
      const ghost = await post<ContextBundle>(
        '/context',
        { transcript: 'ghost espresso machine leaking water', contact_uid: 'ctc_ghost' },
        as(tenantA),
      );
      expect(ghost.status).toBe(200);
      expect(ghost.body.contact).toEqual({ live_fields_available: false, error: 404 });
      expect(ghost.body.historical_excerpts).toEqual([]);
      const wide = await post<SearchResponseDto>(
        '/search',
        { query: 'espresso machine leaking water', top_k: 20 },
        as(tenantA),
      );
      expect(wide.status).toBe(200);
      expect(wide.body.hits.length).toBeGreaterThan(0);
      expect(wide.body.hits.every((h) => h.contact_uid === 'ctc_a1')).toBe(true);
      expect(JSON.stringify(wide.body)).not.toContain('B-SECRET');
    });

    it('lets a bound key ingest only its own locations, and never the shared KB', async () => {
      const mine = message('ctc_a2', 'loc_a', 0, 'Grinder burrs are dull after a month.');
      const theirs = message('ctc_b2', 'loc_b', 0, 'B-SECRET planted by tenant A');
      const nowhere = message('ctc_x', undefined, 0, 'No location at all.');
      const refused = await post('/ingest/conversations', [mine, theirs, nowhere], as(tenantA));
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({
        error: 'location_forbidden',
        details: { indexes: [1, 2] },
      });
      const search = await post<SearchResponseDto>(
        '/search',
        { query: 'grinder burrs dull', contact_uid: 'ctc_a2' },
        as(ops),
      );
      expect(search.body.hits).toEqual([]); // nothing of the refused batch was stored
      expect((await post('/ingest/conversations', [mine], as(tenantA))).status).toBe(200);
      const kb = await post('/ingest/kb', [], as(tenantA));
      expect(kb.status).toBe(403);
    });

    it('treats SQL and JSON injection in contact_uid as plain data', async () => {
      const hostile: unknown[] = [
        "ctc_a1' OR '1'='1",
        'ctc_a1; DROP TABLE conversations; --',
        "ctc_a1'--",
        'ctc_a1--',
        'ctc_a1:*',
        '%',
        '\\u0000',
        { $ne: null },
        ['ctc_a1', 'ctc_b1'],
        'ctc_a1"}],"contact_uid":"ctc_b1',
      ];
      for (const contact_uid of hostile) {
        for (const [path, field] of [
          ['/search', 'query'],
          ['/context', 'transcript'],
        ] as const) {
          const res = await post<{ hits?: Array<{ contact_uid: string }> } & ContextBundle>(
            path,
            { [field]: 'espresso machine leaking', contact_uid },
            as(ops),
          );
          expect({ contact_uid, path, ok: res.status < 500 }).toEqual({
            contact_uid,
            path,
            ok: true,
          });
          if (res.status === 200) {
            expect(res.body.hits ?? res.body.historical_excerpts).toEqual([]);
          }
        }
      }
      const poisoned = await post('/search', '{"query":"x","__proto__":{"top_k":1}}', as(ops));
      expect(poisoned.status).toBe(400);
    });

    it('DELETE /contacts/{uid}/history with a bound key forgets only its own locations', async () => {
      const shared = [
        message('ctc_shared', 'loc_a', 0, 'A-SIDE note about the espresso grinder burrs.'),
        message('ctc_shared', 'loc_b', 1, 'B-SECRET note about the espresso grinder burrs.'),
      ];
      expect((await post('/ingest/conversations', shared, as(ops))).status).toBe(200);
      const forget = (headers: Record<string, string>) =>
        fetch(`${t.url}/contacts/ctc_shared/history`, { method: 'DELETE', headers });
      expect((await forget({})).status).toBe(401);
      const res = await forget(as(tenantA));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ location_uids: ['loc_a'], windows_removed: 1 });
      const left = await post<SearchResponseDto>(
        '/search',
        { query: 'espresso grinder burrs note', contact_uid: 'ctc_shared' },
        as(ops),
      );
      expect(left.body.hits.map((h) => h.content)).toEqual([
        'agent: B-SECRET note about the espresso grinder burrs.',
      ]);
    });
  });

  describe('chat identity (CHAT_AUTH=jwt)', () => {
    const sign = async (sub: string, secret = SECRET, exp: string | number = '5m') => {
      const jose = await loadJose();
      return new jose.SignJWT({ sub })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(new TextEncoder().encode(secret));
    };
    const ask = (token: string | undefined, userId = 'emp_1') =>
      post('/chat-probe', { userId }, token ? { authorization: `Bearer ${token}` } : {});

    it('accepts the token of the user the body names, without an API key', async () => {
      const res = await ask(await sign('emp_1'));
      expect(res).toMatchObject({ status: 200, body: { userId: 'emp_1' } });
    });

    it.each([
      ['missing', () => Promise.resolve(undefined), 'missing_token'],
      ['forged', () => sign('emp_1', 'another-secret-that-is-long-enough-0123'), 'invalid_token'],
      [
        'expired',
        () => sign('emp_1', SECRET, Math.floor(Date.now() / 1000) - 120),
        'token_expired',
      ],
      ['for another user', () => sign('emp_2'), 'token_user_mismatch'],
    ])('answers 401 to a %s token', async (_what, token, code) => {
      const res = await ask(await token());
      expect(res.status).toBe(401);
      expect(res.body.error).toBe(code);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    });
  });

  describe('POST /chat itself (CHAT_AUTH=jwt)', () => {
    it('refuses a forged token and a token for another user, before any work', async () => {
      const jose = await loadJose();
      const token = (secret: string, sub: string) =>
        new jose.SignJWT({ sub })
          .setProtectedHeader({ alg: 'HS256' })
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(secret));
      const ask = async (auth: string | undefined) =>
        post(
          '/chat',
          { query: 'How do I handle a refund request?', userId: 'emp_1' },
          auth ? { authorization: `Bearer ${auth}` } : {},
        );
      expect((await ask(undefined)).body.error).toBe('missing_token');
      expect((await ask(await token('x'.repeat(40), 'emp_1'))).body.error).toBe('invalid_token');
      expect((await ask(await token(SECRET, 'emp_2'))).body.error).toBe('token_user_mismatch');
    });
  });

  describe('CORS', () => {
    it('allows the configured origin only', async () => {
      const preflight = (origin: string) =>
        fetch(`${t.url}/chat-probe`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization,content-type',
          },
        });
      const allowed = await preflight('https://app.example.com');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
      expect(allowed.headers.get('access-control-allow-headers')).toContain('authorization');
      const other = await preflight('https://evil.example.com');
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });
  });

  describe('limits', () => {
    it('caps concurrent ingestion: a second upload gets 429 ingest_busy with Retry-After', async () => {
      const { port } = new URL(t.url);
      const slow = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/ingest/conversations',
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked', ...as(ops) },
      });
      const done = new Promise<number>((resolve, reject) => {
        slow.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        slow.on('error', reject);
      });
      const server = t.app.getHttpServer();
      const arrived = new Promise<IncomingMessage>((resolve) => server.once('request', resolve));
      slow.write('['); // headers are out, the body is not: the upload holds the one slot
      const upload = await arrived;
      await waitUntil('the upload to hold the slot', () => slots.has(upload));
      const second = await post('/ingest/conversations', HISTORY.slice(0, 1), as(ops));
      expect(second.status).toBe(429);
      expect(second.body.error).toBe('ingest_busy');
      expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
      slow.end(`${JSON.stringify(HISTORY[0])}]`);
      expect(await done).toBe(200);
      // The slot is free again.
      expect((await post('/ingest/conversations', HISTORY.slice(0, 1), as(ops))).status).toBe(200);
    });

    it('rate-limits per key: 429 rate_limited with Retry-After, other keys unaffected', async () => {
      const statuses: number[] = [];
      let last: Awaited<ReturnType<typeof post<{ error?: string }>>> | undefined;
      for (let i = 0; i <= PER_KEY; i++) {
        last = await post('/redact', { text: 'hello' }, as(burst));
        statuses.push(last.status);
      }
      expect(statuses.slice(0, PER_KEY).every((s) => s === 200)).toBe(true);
      expect(last?.status).toBe(429);
      expect(last?.body.error).toBe('rate_limited');
      const retryAfter = Number(last?.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((await post('/redact', { text: 'hello' }, as(ops))).status).toBe(200);
    });

    it('rate-limits per IP for callers without a valid key, failed attempts included', async () => {
      const statuses: number[] = [];
      for (let i = 0; i <= PER_IP && statuses.at(-1) !== 429; i++) {
        statuses.push((await post('/redact', { text: 'x' }, { 'x-api-key': 'guess' })).status);
      }
      expect(statuses.at(-1)).toBe(429);
      expect(statuses.slice(0, -1).every((s) => s === 401)).toBe(true);
      // A valid key is its own bucket, and probes are never limited.
      expect((await post('/redact', { text: 'x' }, as(ops))).status).toBe(200);
      expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
    });

    it('TRUST_PROXY=true believes the proxy’s entry only: a client rotating its own X-Forwarded-For is one IP', async () => {
      const statuses: number[] = [];
      for (let i = 0; i <= PER_IP && statuses.at(-1) !== 429; i++) {
        // What the client sent, then what the one trusted proxy appended (the real address).
        const forwarded = { 'x-forwarded-for': `10.66.${i}.1, 198.51.100.7` };
        const res = await post('/redact', { text: 'x' }, { 'x-api-key': 'guess', ...forwarded });
        statuses.push(res.status);
      }
      expect(statuses).toHaveLength(PER_IP + 1);
      expect(statuses.at(-1)).toBe(429);
      // Another real client behind the same proxy has its own bucket.
      const other = { 'x-api-key': 'guess', 'x-forwarded-for': '198.51.100.9' };
      expect((await post('/redact', { text: 'x' }, other)).status).toBe(401);
    });

    it('counts failed-key attempts on /ingest/* (refused before the body is read) per IP too', async () => {
      const from = { 'x-api-key': 'guess', 'x-forwarded-for': '198.51.100.8' };
      const responses: Array<{ status: number; error?: string }> = [];
      for (let i = 0; i <= PER_IP && responses.at(-1)?.status !== 429; i++) {
        const res = await post<{ error?: string }>('/ingest/conversations', HISTORY, from);
        responses.push({ status: res.status, error: res.body.error });
      }
      expect(responses).toHaveLength(PER_IP + 1);
      expect(responses.slice(0, -1).every((r) => r.error === 'invalid_api_key')).toBe(true);
      expect(responses.at(-1)).toEqual({ status: 429, error: 'rate_limited' });
      // One bucket per IP across routes: the same guesser is limited everywhere.
      expect((await post('/redact', { text: 'x' }, from)).status).toBe(429);
    });
  });
});
