import { generateApiKey } from '../src/config/api-key-entries';
import { type AdapterApp, bootAdapterApp, ops, tenantA, tenantB } from './support/adapter-fixtures';
import { refusedUpgrade, StreamClient } from './support/call-stream';
import { OPCODE, RawWebSocket } from './support/raw-websocket';
import { waitFor } from './support/wait';

type Key = { key: string };
const auth = (key: Key) => ({ authorization: `Bearer ${key.key}` });
/** A key of B's location, to fill its CALLS_MAX_PER_CALLER (set low here) alone. */
const greedy = generateApiKey('greedy', ['loc_b']);
const ALLOWED_ORIGIN = 'https://agent.example';
const PER_CALLER = 16;
/** Requests a minute from an IP without a valid key (every test here sends a valid one). */
const PER_IP = 10;

/**
 * The call stream against hostile clients, frame by frame on a bare TCP socket: floods of
 * frames, pings and finals, broken frames, foreign origins and wrong paths, another tenant's
 * call. Every refusal is a stable code (an HTTP problem before the upgrade, a close code after).
 */
describe('call stream against hostile clients (e2e)', () => {
  let a: AdapterApp;
  const path = (callId: string, query = 'contact_uid=ctc_b1') => `/calls/${callId}/stream?${query}`;
  const raw = async (callId: string, key: Key = tenantB, headers: Record<string, string> = {}) => {
    const socket = await RawWebSocket.open(a.t.url, path(callId), { ...auth(key), ...headers });
    expect(socket.status).toBe(101);
    await socket.until(() => socket.messages.some((m) => m.type === 'ready'));
    return socket;
  };
  const open = async (callId: string, key: Key = tenantB, query = 'contact_uid=ctc_b1') => {
    const client = new StreamClient(
      `${a.t.url.replace('http', 'ws')}${path(callId, query)}`,
      auth(key),
    );
    await client.opened;
    await client.next(['ready']);
    return client;
  };

  beforeAll(async () => {
    a = await bootAdapterApp({
      CONTEXT_TIMEOUT_MS: '5000',
      CALLS_MAX_PER_CALLER: String(PER_CALLER),
      CORS_ORIGINS: ALLOWED_ORIGIN,
      RATE_LIMIT_PER_IP_PER_MINUTE: String(PER_IP),
      API_KEYS: [tenantA.line, tenantB.line, ops.line, greedy.line].join(','),
    });
  }, 120_000);
  afterAll(async () => {
    await a?.t.close();
  });

  it('an upgrade from a browser page of another origin is refused before the upgrade', async () => {
    const url = `${a.t.url}${path('call_origin')}`;
    const foreign = await refusedUpgrade(url, { ...auth(tenantB), origin: 'https://evil.example' });
    expect([foreign.status, foreign.body.error]).toEqual([403, 'origin_forbidden']);
    const nullOrigin = await refusedUpgrade(url, { ...auth(tenantB), origin: 'null' });
    expect([nullOrigin.status, nullOrigin.body.error]).toEqual([403, 'origin_forbidden']);
    // CORS_ORIGINS' own origin, and a client that is no browser (no Origin), are served.
    const allowed = await raw('call_origin', tenantB, { origin: ALLOWED_ORIGIN });
    allowed.destroy();
  });

  it('an upgrade on a path that is no stream is answered over HTTP and its socket closed', async () => {
    for (const wrong of ['/context', '/nope', '/calls/x/stream/more', '/health/live']) {
      const socket = await RawWebSocket.open(a.t.url, wrong, auth(tenantB));
      expect(socket.status).not.toBe(101);
      await socket.ended;
    }
  });

  it('upgrades count against the rate limit: guessing keys on the stream gets 429', async () => {
    const url = `${a.t.url}${path('call_guess')}`;
    const answers: unknown[] = [];
    for (let i = 0; i <= PER_IP; i++) {
      const refused = await refusedUpgrade(url, { authorization: `Bearer cb_guess_${i}` });
      answers.push(refused.body.error);
    }
    expect(answers.slice(0, PER_IP).every((code) => code === 'invalid_api_key')).toBe(true);
    expect(answers[PER_IP]).toBe('rate_limited');
  });

  it('a caller past CALLS_MAX_PER_CALLER streams gets 429 too_many_calls before the upgrade', async () => {
    const held: RawWebSocket[] = [];
    for (let n = 1; n <= PER_CALLER; n++) {
      held.push(await raw(`call_greedy_${n}`, greedy));
    }
    const refused = await refusedUpgrade(`${a.t.url}${path('call_greedy_x')}`, auth(greedy));
    expect([refused.status, refused.body.error]).toEqual([429, 'too_many_calls']);
    held.forEach((socket) => socket.destroy());
  });

  it('a ping flood closes the stream with 4429 stream_rate_limited', async () => {
    const socket = await raw('call_pings');
    for (let i = 0; i < 200; i++) {
      socket.send(OPCODE.ping, 'x'.repeat(125));
    }
    await socket.ended;
    expect(socket.closeFrame).toEqual({ code: 4429, reason: 'stream_rate_limited' });
    // Pongs answered before the bound: never more than the frames a second allow.
    expect(socket.frames.filter((f) => f.opcode === OPCODE.pong).length).toBeLessThanOrEqual(50);
  });

  it('invalid UTF-8 in a text frame closes with 1007', async () => {
    const socket = await raw('call_utf8');
    socket.send(OPCODE.text, Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x7d]));
    await socket.ended;
    expect(socket.closeFrame?.code).toBe(1007);
  });

  it('fragments adding up past 40 KiB close with 1009, however they are cut', async () => {
    const socket = await raw('call_fragments');
    socket.send(OPCODE.text, '{"type":"final","transcript":"', false);
    for (let i = 0; i < 50; i++) {
      socket.send(OPCODE.continuation, 'a'.repeat(1024), false);
    }
    await socket.ended;
    expect(socket.closeFrame?.code).toBe(1009);
  });

  it('finals faster than they are served: two at once, the rest answered stream_busy', async () => {
    const socket = await raw('call_finals');
    const release = a.liveFault.hold();
    try {
      for (let seq = 1; seq <= 10; seq++) {
        socket.text({ type: 'final', transcript: `espresso machine ${seq}`, seq });
      }
      await socket.until(() => socket.messages.filter((m) => m.type === 'error').length === 8);
    } finally {
      release();
    }
    await socket.until(
      () =>
        socket.messages.filter((m) => m.type === 'bundle' || m.type === 'confirmed').length === 2,
    );
    const busy = socket.messages.filter((m) => m.type === 'error');
    expect(busy.map((m) => m.seq)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    expect(busy[0]).toMatchObject({ problem: { error: 'stream_busy', status: 429 } });
    // Once served, the stream takes finals again.
    socket.text({ type: 'final', transcript: 'espresso machine again', seq: 11 });
    await socket.until(() => socket.messages.some((m) => m.seq === 11));
    expect(socket.messages.find((m) => m.seq === 11)?.type).not.toBe('error');
    socket.destroy();
  });

  it("finals past the call's rate are answered stream_finals_rate_limited; their words reach the next bundle's query", async () => {
    const socket = await raw('call_paced');
    let seq = 0;
    const send = async (transcript: string) => {
      const mine = ++seq;
      socket.text({ type: 'final', transcript, seq: mine });
      await socket.until(() => socket.messages.some((m) => m.seq === mine));
      return socket.messages.find((m) => m.seq === mine) as Record<string, unknown>;
    };
    // Past the burst of 3 (a slow box may refill a token or two meanwhile).
    const refused = await waitFor('a final over the rate', async () => {
      const answer = await send(`espresso machine ${seq + 1}`);
      return answer.type === 'error' ? answer : undefined;
    });
    const keptSeq = refused.seq as number;
    expect(refused).toMatchObject({
      problem: { error: 'stream_finals_rate_limited', status: 429 },
    });
    // Each refused one keeps its words too; the next built one carries them all.
    const built = await waitFor('the next built final', async () => {
      const answer = await send('ORD-48213');
      return answer.type === 'error' ? undefined : answer;
    });
    const bundle = built.bundle as { meta: { query: string } };
    // The coalescer's tail holds the last built final's words; the refused one's come from it.
    expect(bundle.meta.query).toContain(`espresso machine ${keptSeq} ORD-48213`);
    socket.destroy();
  });

  it('huge ids, text and numbers in frames are refused, and the stream goes on', async () => {
    const client = await open('call_huge');
    for (const event of [
      { type: 'final', transcript: 'hi', seq: 2 ** 53 },
      { type: 'final', transcript: 'hi', seq: -1 },
      { type: 'final', transcript: 'hi', timeout_ms: 1e308 },
      { type: 'final', transcript: 'hi', max_tokens: Number.MAX_SAFE_INTEGER },
      { type: 'final', transcript: 'hi', call_id: 'c'.repeat(10_000) },
      { type: 'final', transcript: 'hi', occurred_at: '9'.repeat(30) },
      { type: 'interim', transcript: 'x'.repeat(8001) },
    ]) {
      client.send(event);
      expect(await client.next(['error'])).toMatchObject({
        problem: { error: 'validation_failed' },
      });
    }
    client.send({ type: 'final', transcript: 'espresso machine', seq: 1 });
    expect(await client.next(['bundle', 'confirmed'])).toMatchObject({ seq: 1 });
    client.close();
  });

  it('another tenant’s contact and call: a bound key neither reads nor replaces them', async () => {
    const own = await open('call_shared', tenantA, 'contact_uid=ctc_a1');
    // B's key names A's contact and A's call id: its own call, scoped to B's location.
    const intruder = await open('call_shared', tenantB, 'contact_uid=ctc_a1');
    intruder.send({ type: 'final', transcript: 'my espresso machine leaks water', seq: 1 });
    const answer = await intruder.next(['bundle', 'confirmed']);
    const bundle = answer.bundle as {
      contact: Record<string, unknown>;
      historical_excerpts: unknown[];
    };
    expect(bundle.contact).toMatchObject({ live_fields_available: false });
    expect(JSON.stringify(bundle)).not.toContain('+15550100');
    expect(bundle.historical_excerpts).toEqual([]);
    expect(JSON.stringify(bundle)).not.toMatch(/boiler|gasket/i);
    intruder.send({ type: 'end' });
    await intruder.closed;
    // A's stream was neither replaced nor ended by B's.
    own.send({ type: 'final', transcript: 'my order', seq: 2 });
    expect(await own.next(['bundle', 'confirmed'])).toMatchObject({ seq: 2 });
    own.close();
  });
});
