import { generateApiKey } from '../src/config/api-key-entries';
import { type AdapterApp, bootAdapterApp, ops, tenantA, tenantB } from './support/adapter-fixtures';
import { request } from './support/tenant-isolation-fixtures';
import { waitUntil } from './support/wait';

type Key = { key: string };
const B_MARK = 'B-SECRET';
/** A second key of B's location: the same tenant, another caller. */
const tenantB2 = generateApiKey('tenant-b2', ['loc_b']);

/**
 * Voice calls under location-bound keys: prefetch, interim chunks, a call's own memory and its
 * end follow the tenant binding exactly as /context does, and one key's call is never another's,
 * even with the same call_id and contact.
 */
describe('calls under location-bound keys (e2e)', () => {
  let a: AdapterApp;
  const post = (path: string, key: Key, body: unknown) =>
    request(`${a.t.url}${path}`, 'POST', { authorization: `Bearer ${key.key}` }, body);

  beforeAll(async () => {
    // The shortest idle allowed, so the idle end is seen within the test's time.
    a = await bootAdapterApp({
      API_KEYS: [tenantA.line, tenantB.line, tenantB2.line, ops.line].join(','),
      CONTEXT_TIMEOUT_MS: '5000',
      CALLS_IDLE_MS: '5000',
    });
  });
  afterAll(async () => {
    await a?.t.close();
  });

  it('POST /calls: 403 for a location outside the key, and B’s contact reads as unknown', async () => {
    const forbidden = await post('/calls', tenantA, {
      call_id: 'call_x',
      contact_uid: 'ctc_b1',
      location_uid: 'loc_b',
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.json().error).toBe('location_forbidden');

    const probe = await post('/calls', tenantA, { call_id: 'call_probe', contact_uid: 'ctc_b1' });
    expect(probe.status).toBe(200);
    expect(probe.json()).toMatchObject({
      contact: { live_fields_available: false, error: 404 },
      recent_messages: [],
    });
    expect(probe.text).not.toContain(B_MARK);
    // The owner sees its own contact's messages.
    const own = await post('/calls', tenantB, { call_id: 'call_own', contact_uid: 'ctc_b1' });
    expect(own.text).toContain(B_MARK);
  });

  it('an interim or final for another location is refused before any work', async () => {
    for (const is_final of [false, true]) {
      const res = await post('/context', tenantA, {
        transcript: 'espresso machine leaking',
        contact_uid: 'ctc_b1',
        location_uid: 'loc_b',
        call_id: 'call_x',
        is_final,
      });
      expect(res.status).toBe(403);
    }
  });

  it('the same call_id and contact under two keys are two calls', async () => {
    const turn = (key: Key, transcript: string) =>
      post('/context', key, { transcript, contact_uid: 'ctc_shared', call_id: 'call_same' });
    await turn(tenantB, `${B_MARK} my alarm code is 5521`);
    const fromA = await turn(tenantA, 'what alarm code did I give you');
    expect(fromA.json().call_memory).toEqual([]);
    expect(fromA.text).not.toContain(B_MARK);
    // A cannot end B's call; B's own call still remembers.
    const ended = await post('/calls/end', tenantA, { call_id: 'call_same', contact_uid: 'ctc_shared' });
    expect(ended.json()).toEqual({ ended: true, joined_turns: 1 }); // A's own call
    const fromB = await turn(tenantB, 'what alarm code did I give you');
    expect(JSON.stringify(fromB.json().call_memory)).toContain('5521');
  });

  it('two keys of one location with the same call_id, contact and location share no words', async () => {
    // meta.query echoes the call's coalesced words unredacted: another key must not read them.
    const turn = (key: Key, transcript: string) =>
      post('/context', key, {
        transcript,
        contact_uid: 'ctc_b1',
        location_uid: 'loc_b',
        call_id: 'call_twin',
      });
    await turn(tenantB, `${B_MARK} my alarm code is 5521`);
    const other = await turn(tenantB2, 'which alarm code');
    expect(other.status).toBe(200);
    expect((other.json() as { meta: { query: string } }).meta.query).toBe('which alarm code');
    expect(other.text).not.toContain('5521');
    expect(other.json().call_memory).toEqual([]);
  });

  it('an ended call of a key bound to one location joins history in that location only', async () => {
    await post('/context', tenantB, {
      transcript: `${B_MARK} the garage door opener beeps twice`,
      contact_uid: 'ctc_b1',
      call_id: 'call_join',
    });
    const ended = await post('/calls/end', tenantB, { call_id: 'call_join', contact_uid: 'ctc_b1' });
    expect(ended.json()).toEqual({ ended: true, joined_turns: 1 });
    const search = (key: Key) =>
      post('/search', key, { query: 'garage door opener beeps', contact_uid: 'ctc_b1' });
    await waitUntil('the call in B’s history', async () =>
      JSON.stringify((await search(tenantB)).json().hits).includes('garage door opener'),
    );
    expect((await search(tenantA)).json().hits).toEqual([]);
  });

  it('a call nobody ends joins history once idle, outside any request', async () => {
    await post('/context', tenantB, {
      transcript: `${B_MARK} the attic fan rattles at night`,
      contact_uid: 'ctc_b1',
      call_id: 'call_idle',
    });
    await waitUntil('the idle call in B’s history', async () => {
      const found = await post('/search', tenantB, {
        query: 'attic fan rattles',
        contact_uid: 'ctc_b1',
      });
      return JSON.stringify(found.json().hits).includes('attic fan rattles');
    });
    // Its state is gone: the same call_id starts a new call with no memory of the old one.
    const again = await post('/context', tenantB, {
      transcript: 'what about the attic fan',
      contact_uid: 'ctc_b1',
      call_id: 'call_idle',
    });
    expect(again.json().call_memory).toEqual([]);
  });
});
