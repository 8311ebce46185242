import { BridgeError, ContextBridgeClient } from '../libs/client/src';
import { generateApiKey } from '../src/config/api-key-entries';
import { type ContextBundle } from '../src/context/context.dto';
import { ContextService } from '../src/context/context.service';
import { type AdapterApp, bootAdapterApp, ops, tenantA, tenantB } from './support/adapter-fixtures';
import { refusedUpgrade, StreamClient, type StreamMessage } from './support/call-stream';
import { request } from './support/tenant-isolation-fixtures';
import { waitUntil } from './support/wait';

type Key = { key: string };
/** A key of B's location that may only ingest: no `context:read`. */
const ingestOnly = generateApiKey('ingest-only', ['loc_b'], ['ingest:write']);
const auth = (key: Key) => ({ authorization: `Bearer ${key.key}` });

/**
 * The per-call stream (`GET /calls/{call_id}/stream`) on the real app and a real WebSocket
 * client: auth at the upgrade, hostile frames, speculation pushed and confirmed, a final's
 * bundle equal to POST /context's, and a forget during the call.
 */
describe('call stream (WebSocket, e2e)', () => {
  let a: AdapterApp;
  const wsUrl = (callId: string, query: string) =>
    `${a.t.url.replace('http', 'ws')}/calls/${callId}/stream?${query}`;
  const open = async (callId: string, key: Key = tenantB, query = 'contact_uid=ctc_b1') => {
    const client = new StreamClient(wsUrl(callId, query), auth(key));
    await client.opened;
    expect(await client.next(['ready'])).toEqual({ type: 'ready', call_id: callId });
    return client;
  };
  const context = (key: Key, body: Record<string, unknown>) =>
    request(`${a.t.url}/context`, 'POST', auth(key), body);
  /** Speculation starts only once finals have left the process idle for a moment. */
  const quiet = () =>
    waitUntil(
      'finals to leave the process idle',
      () => !a.t.app.get(ContextService).speculationHeld,
    );
  /** Sends `sentence` word by word as interims, then the final; returns the final's answer. */
  const speak = async (client: StreamClient, sentence: string, seq: number) => {
    await quiet();
    const words = sentence.split(' ');
    for (let n = 1; n <= words.length; n++) {
      client.send({ type: 'interim', transcript: words.slice(0, n).join(' ') });
    }
    const pushed = await client.next(['speculative']);
    client.send({ type: 'final', transcript: sentence, seq });
    return { pushed, answer: await client.next(['confirmed', 'bundle', 'error']) };
  };
  /** The bundle a client holds after a final's answer (the pushed excerpts when confirmed). */
  const held = (pushed: StreamMessage, answer: StreamMessage): ContextBundle => {
    if (answer.type === 'bundle') {
      return answer.bundle as ContextBundle;
    }
    return {
      contact: answer.contact,
      meta: answer.meta,
      ...(answer.call_memory ? { call_memory: answer.call_memory } : {}),
      historical_excerpts: pushed.historical_excerpts,
      token_count: pushed.token_count,
    } as ContextBundle;
  };

  beforeAll(async () => {
    a = await bootAdapterApp({
      CONTEXT_TIMEOUT_MS: '5000',
      API_KEYS: [tenantA.line, tenantB.line, ops.line, ingestOnly.line].join(','),
    });
  }, 120_000);
  afterAll(async () => {
    await a?.t.close();
  });

  it('the upgrade is refused without a key, with a wrong one, and outside the key’s locations', async () => {
    const url = `${a.t.url}/calls/call_auth/stream?contact_uid=ctc_b1`;
    const missing = await refusedUpgrade(url);
    expect([missing.status, missing.body.error]).toEqual([401, 'missing_api_key']);
    const wrong = await refusedUpgrade(url, { authorization: 'Bearer cb_not_a_key' });
    expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_api_key']);
    const unscoped = await refusedUpgrade(url, auth(ingestOnly));
    expect([unscoped.status, unscoped.body.error]).toEqual([403, 'insufficient_scope']);
    const elsewhere = await refusedUpgrade(`${url}&location_uid=loc_b`, auth(tenantA));
    expect([elsewhere.status, elsewhere.body.error]).toEqual([403, 'location_forbidden']);
    const plain = await request(url, 'GET', auth(tenantB));
    expect([plain.status, plain.json().error]).toEqual([426, 'upgrade_required']);
    const hostile = await refusedUpgrade(
      `${a.t.url}/calls/call_auth/stream?contact_uid=${'x'.repeat(200)}&extra=1`,
      auth(tenantB),
    );
    expect([hostile.status, hostile.body.error]).toEqual([400, 'validation_failed']);
  });

  it('a stable interim is pushed, and the final confirms it with what POST /context returns', async () => {
    const client = await open('call_same');
    const sentence = 'my espresso machine leaks water everywhere';
    const { pushed, answer } = await speak(client, sentence, 7);
    expect(answer).toMatchObject({ type: 'confirmed', seq: 7, bundle_id: pushed.bundle_id });
    const bundle = held(pushed, answer);
    expect(bundle.meta.speculative).toBe(true);
    expect(bundle.contact).toMatchObject({ live_fields_available: true, phone: '+15550200' });
    // Another call, final only: the same bundle, as HTTP serves it.
    const http = await context(tenantB, {
      transcript: sentence,
      contact_uid: 'ctc_b1',
      call_id: 'call_same_http',
    });
    expect(http.status).toBe(200);
    const expected = http.json() as unknown as ContextBundle;
    expect(bundle.historical_excerpts).toEqual(expected.historical_excerpts);
    expect(bundle.token_count).toBe(expected.token_count);
    expect(bundle.contact).toEqual(expected.contact);
    expect(bundle.historical_excerpts.length).toBeGreaterThan(0);
    client.close();
  });

  it('the TypeScript client: the turn’s bundle is in hand when the turn ends', async () => {
    const client = new ContextBridgeClient({ baseUrl: a.t.url, apiKey: tenantB.key });
    const updates: number[] = [];
    const stream = await client.openCallStream({
      callId: 'call_client',
      contactUid: 'ctc_b1',
      deadlineMs: 5000,
      onSpeculative: (update) => updates.push(update.bundle_id),
    });
    const sentence = 'a technician visits your espresso machine';
    await quiet();
    const words = sentence.split(' ');
    for (let n = 1; n <= words.length; n++) {
      stream.interim(words.slice(0, n).join(' '));
    }
    await waitUntil('a speculative update', () => updates.length > 0);
    const sent = stream.final(sentence);
    const bundle = await stream.turnBundle();
    expect(await sent).toBe(bundle);
    expect(bundle?.meta.speculative).toBe(true);
    const http = await context(tenantB, {
      transcript: sentence,
      contact_uid: 'ctc_b1',
      call_id: 'call_client_http',
    });
    const expected = http.json() as unknown as ContextBundle;
    expect(bundle?.historical_excerpts).toEqual(expected.historical_excerpts);
    expect(bundle?.contact).toEqual(expected.contact);
    // Without a pending final, the turn's text is sent now.
    const late = await stream.turnBundle('espresso machine gasket');
    expect(late?.meta.query).toContain('gasket');
    await stream.end();
    await expect(
      client.openCallStream({ callId: 'call_client', contactUid: 'ctc_b1', locationUid: 'loc_a' }),
    ).rejects.toBeInstanceOf(BridgeError);
  });

  it('hostile frames: wrong types answer validation_failed and the stream goes on', async () => {
    const client = await open('call_types');
    for (const event of [
      { type: 'final', transcript: 5, seq: 1 },
      { type: 'final', transcript: 'hello', timeout_ms: 1e9, seq: 2 },
      { type: 'final', transcript: 'hello', contact_uid: 'ctc_a1', seq: 3 },
      { type: 'final', transcript: { nested: 'x' }, seq: 4 },
      { type: 'shout', transcript: 'hello', seq: 5 },
      { type: 'final', transcript: 'x'.repeat(8001), seq: 6 },
    ]) {
      client.send(event);
      const error = await client.next(['error']);
      expect(error).toMatchObject({ problem: { error: 'validation_failed', status: 400 } });
      expect(JSON.stringify(error)).not.toContain('ctc_a1');
    }
    client.send({ type: 'final', transcript: 'espresso machine', seq: 9 });
    expect(await client.next(['bundle', 'confirmed'])).toMatchObject({ seq: 9 });
    client.close();
  });

  it.each([
    ['bad JSON', '{"type": "final",', 4400, 'bad_frame'],
    ['a JSON array', '[1,2]', 4400, 'bad_frame'],
    [
      'a frame over 40 KiB',
      JSON.stringify({ type: 'final', transcript: 'a'.repeat(50_000) }),
      1009,
      '',
    ],
  ])('%s closes the stream with its code', async (_what, frame, code, reason) => {
    const client = await open(`call_frame_${code}_${reason.length}_${frame.length % 97}`);
    client.send(frame);
    const closed = await client.closed;
    expect(closed.code).toBe(code);
    expect(closed.reason).toBe(reason);
  });

  it('a binary frame and a flood close the stream with their codes', async () => {
    const binary = await open('call_binary');
    binary.socket.send(new Uint8Array([1, 2, 3]));
    expect(await binary.closed).toEqual({ code: 4400, reason: 'bad_frame' });
    const flood = await open('call_flood');
    for (let i = 0; i < 60; i++) {
      flood.send({ type: 'interim', transcript: `word ${i}` });
    }
    expect(await flood.closed).toEqual({ code: 4429, reason: 'stream_rate_limited' });
  });

  it('one stream per call: a newer one replaces the older', async () => {
    const first = await open('call_twice');
    const second = await open('call_twice');
    expect(await first.closed).toEqual({ code: 4409, reason: 'stream_replaced' });
    second.send({ type: 'final', transcript: 'espresso machine', seq: 1 });
    expect(await second.next(['bundle', 'confirmed'])).toMatchObject({ seq: 1 });
    second.send({ type: 'end' });
    expect(await second.closed).toEqual({ code: 1000, reason: 'call_ended' });
    const ended = await request(`${a.t.url}/calls/end`, 'POST', auth(tenantB), {
      call_id: 'call_twice',
      contact_uid: 'ctc_b1',
    });
    expect(ended.json()).toMatchObject({ ended: false }); // the end event ended it
  });

  it('a forget during the call removes the call’s turns from later bundles on the stream', async () => {
    const client = await open('call_forget');
    client.send({ type: 'final', transcript: 'my locker combination is nine one eight', seq: 1 });
    await client.next(['bundle', 'confirmed']);
    client.send({ type: 'final', transcript: 'what was my locker combination', seq: 2 });
    const before = await client.next(['bundle', 'confirmed']);
    const recalled =
      (before.bundle as ContextBundle | undefined)?.call_memory ?? before.call_memory;
    expect(JSON.stringify(recalled)).toContain('locker combination is nine');

    const forget = await request(`${a.t.url}/contacts/forget`, 'POST', auth(ops), {
      contact_uid: 'ctc_b1',
    });
    expect(forget.status).toBe(200);
    client.send({ type: 'final', transcript: 'tell me my locker combination again', seq: 3 });
    const after = await client.next(['bundle', 'confirmed']);
    expect(after.seq).toBe(3);
    const bundle = (after.bundle ?? after) as ContextBundle;
    expect(bundle.call_memory ?? []).toEqual([]);
    expect(JSON.stringify(bundle.historical_excerpts ?? [])).not.toContain('B-SECRET');
    client.close();
  });
});
