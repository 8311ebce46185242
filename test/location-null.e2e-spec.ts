import { type AdapterApp, bootAdapterApp, ops, tenantA, tenantB } from './support/adapter-fixtures';
import { message } from './support/auth-fixtures';
import { request } from './support/tenant-isolation-fixtures';

type Key = { key: string };
const QUERY = 'espresso machine leaking water';

/**
 * `"location_uid": null` is the field left out, on every route that takes one, for bound and
 * unbound keys alike: `@IsOptional()` validates every other optional field that way, and the
 * answer may not depend on which of the two spellings a client's serializer picked. (It once
 * answered a bound key 403 on reads and filtered an unbound key's search to "no location".)
 */
describe('location_uid: null means the field left out, on every route (e2e)', () => {
  let a: AdapterApp;

  const post = (path: string, key: Key, body: unknown) =>
    request(`${a.t.url}${path}`, 'POST', { authorization: `Bearer ${key.key}` }, body);
  /** What a route answers with the field omitted and with it null, minus per-request noise. */
  const both = async (path: string, key: Key, body: Record<string, unknown>) => {
    const [omitted, nulled] = [
      await post(path, key, body),
      await post(path, key, { ...body, location_uid: null }),
    ];
    // Timings (`meta`, explain's stage `ms`/`start_ms`) differ between any two calls.
    const stable = (res: Awaited<ReturnType<typeof post>>) => ({
      status: res.status,
      json: JSON.parse(res.text, (key, value: unknown) =>
        key === 'meta' || key === 'request_id' || /(^|_)ms$/.test(key) ? undefined : value,
      ) as Record<string, unknown>,
    });
    return { omitted: stable(omitted), nulled: stable(nulled) };
  };

  beforeAll(async () => {
    a = await bootAdapterApp({ CONTEXT_TIMEOUT_MS: '5000' });
  });
  afterAll(() => a?.t.close());

  it.each([
    ['/search', { query: QUERY, top_k: 20 }],
    ['/search', { query: QUERY, contact_uid: 'ctc_a1' }],
    ['/context', { transcript: QUERY, contact_uid: 'ctc_a1' }],
    ['/context', { transcript: QUERY, contact_uid: 'ctc_a1', explain: true }],
    ['/context/prompt', { transcript: QUERY, contact_uid: 'ctc_a1' }],
    ['/calls', { call_id: 'call_null_open', contact_uid: 'ctc_a1' }],
  ])('a bound key: %s %j', async (path, body) => {
    const { omitted, nulled } = await both(path, tenantA, body);
    expect(omitted.status).toBe(200);
    expect(nulled).toEqual(omitted);
    expect(JSON.stringify(nulled.json)).not.toContain('B-SECRET');
  });

  it('an unbound key: /search and /context read every location, as without the field', async () => {
    for (const [path, body] of [
      ['/search', { query: QUERY, top_k: 20 }],
      ['/context', { transcript: QUERY, contact_uid: 'ctc_b1' }],
    ] as const) {
      const { omitted, nulled } = await both(path, ops, body);
      expect(omitted.status).toBe(200);
      expect(JSON.stringify(omitted.json)).toContain('B-SECRET'); // the data is there
      expect(nulled).toEqual(omitted);
    }
  });

  it('a bound key ingesting a record with location_uid null is refused like one without it', async () => {
    const record = message('ctc_a9', 'loc_a', 0, 'The grinder hopper lid cracked.');
    const without = message('ctc_a9', undefined, 0, 'The grinder hopper lid cracked.');
    const answers = [
      await post('/ingest/conversations', tenantA, [record, without]),
      await post('/ingest/conversations', tenantA, [record, { ...record, location_uid: null }]),
    ].map((res) => ({ status: res.status, json: res.json() }));
    for (const answer of answers) {
      expect(answer).toMatchObject({
        status: 403,
        json: { error: 'location_forbidden', details: { indexes: [1] } },
      });
    }
  });

  it('an unbound key stores a record with location_uid null as one without a location', async () => {
    const text = 'Unscoped note: the tamper is missing from the box.';
    const stored = await post('/ingest/conversations', ops, [
      { ...message('ctc_n1', undefined, 0, text), location_uid: null },
    ]);
    expect(stored.json()).toMatchObject({ inserted: 1, failed: [] });
    // Without a location, no bound key reads it; an unbound key does.
    for (const key of [tenantA, tenantB]) {
      const res = await post('/search', key, { query: 'tamper missing', contact_uid: 'ctc_n1' });
      expect(res.json().hits).toEqual([]);
    }
    const unbound = await post('/search', ops, { query: 'tamper missing', contact_uid: 'ctc_n1' });
    expect(JSON.stringify(unbound.json().hits)).toContain('tamper is missing');
  });

  it("a call a single-location key ends with location_uid null joins that location's history", async () => {
    const callId = 'call_null_join';
    const opened = await post('/calls', tenantA, {
      call_id: callId,
      contact_uid: 'ctc_a1',
      location_uid: null,
    });
    expect(opened.status).toBe(200);
    const chunk = await post('/context', tenantA, {
      call_id: callId,
      contact_uid: 'ctc_a1',
      location_uid: null,
      transcript: 'the drip tray of my espresso machine is cracked',
    });
    expect(chunk.status).toBe(200);
    const ended = await post('/calls/end', tenantA, {
      call_id: callId,
      contact_uid: 'ctc_a1',
      location_uid: null,
    });
    expect({ status: ended.status, json: ended.json() }).toEqual({
      status: 200,
      json: { ended: true, joined_turns: 1 },
    });
    const search = { query: 'drip tray cracked', contact_uid: 'ctc_a1', top_k: 3 };
    const mine = (await post('/search', tenantA, search)).json();
    expect(JSON.stringify(mine.hits)).toContain('drip tray');
    expect((await post('/search', tenantB, search)).json().hits).toEqual([]);
  });
});
