import Fastify, { type FastifyInstance } from 'fastify';

import {
  INGEST_OWED_LAPSE_MS,
  INGEST_OWED_MS,
  INGEST_REFUSAL_HOLD_MS,
  registerIngestAdmission,
} from './ingest-admission';

describe('registerIngestAdmission', () => {
  let app: FastifyInstance;
  let finish: () => void;
  let releaseKb: () => void = () => undefined;

  beforeEach(async () => {
    // Only timers: light-my-request's own ticks stay real.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    app = Fastify();
    registerIngestAdmission(app, {
      maxInFlight: 1,
      maxRecords: 10,
      reject: () => undefined,
      countRefused: () => Promise.resolve(),
      tenantOf: (request) => String(request.headers['x-tenant'] ?? ''),
    });
    const running = new Promise<void>((resolve) => (finish = resolve));
    // A route whose every upload runs until the test releases it.
    app.post('/ingest/kb', async () => {
      await new Promise<void>((resolve) => (releaseKb = resolve));
      return { ok: true };
    });
    app.post('/ingest/conversations', async () => {
      await running;
      return { ok: true };
    });
    await app.ready();
  });

  afterEach(async () => {
    finish();
    releaseKb();
    jest.useRealTimers();
    await app.close();
  });

  const upload = (tenant = '') =>
    app.inject({
      method: 'POST',
      url: '/ingest/conversations',
      payload: [{ a: 1 }],
      headers: { 'x-tenant': tenant },
    });
  const kbUpload = (tenant: string) =>
    app.inject({ method: 'POST', url: '/ingest/kb', payload: [], headers: { 'x-tenant': tenant } });
  /** An upload's status once answered (a refusal is held INGEST_REFUSAL_HOLD_MS). */
  const statusOf = async (tenant: string) => {
    const response = upload(tenant);
    await jest.advanceTimersByTimeAsync(INGEST_REFUSAL_HOLD_MS);
    return (await response).statusCode;
  };

  it('holds an ingest_busy refusal INGEST_REFUSAL_HOLD_MS, so a looping caller comes back slowly', async () => {
    const first = upload();
    await jest.advanceTimersByTimeAsync(0);
    let answered = false;
    const refused = upload().finally(() => (answered = true));
    await jest.advanceTimersByTimeAsync(INGEST_REFUSAL_HOLD_MS - 1);
    expect(answered).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    const response = await refused;
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'ingest_busy' });
    expect(response.headers['retry-after']).toBe('5');
    finish();
    expect((await first).statusCode).toBe(200);
  });

  it('owes the next slot to a tenant refused while another ran: back-to-back uploads never starve it (old: B got every turn)', async () => {
    const first = upload('B');
    await jest.advanceTimersByTimeAsync(0);
    expect(await statusOf('A')).toBe(429); // B's upload holds the only slot
    finish();
    expect((await first).statusCode).toBe(200);
    // The slot is free, but the turn is A's: B's next upload waits, A's retry runs.
    expect(await statusOf('B')).toBe(429);
    expect(await statusOf('A')).toBe(200);
    expect(await statusOf('B')).toBe(200);
  });

  it('keeps the turn owed to a caller that keeps asking while one long upload runs (old: it lapsed after INGEST_OWED_MS and the uploader went again)', async () => {
    finish(); // uploads to /ingest/conversations end at once; B's one to /ingest/kb runs long
    const long = kbUpload('B');
    await jest.advanceTimersByTimeAsync(0);
    expect(await statusOf('A')).toBe(429); // A is owed the next slot
    // A retries as told while B's one upload runs past INGEST_OWED_MS: A has not gone away.
    for (let waited = 0; waited <= INGEST_OWED_MS; waited += 5000) {
      await jest.advanceTimersByTimeAsync(5000);
      expect(await statusOf('A')).toBe(429);
    }
    releaseKb();
    expect((await long).statusCode).toBe(200);
    expect(await statusOf('B')).toBe(429); // B's next upload waits: the turn is A's
    expect(await statusOf('A')).toBe(200);
  });

  it('lets a turn owed to a caller who never came back lapse after INGEST_OWED_MS, and owes that caller none for a while', async () => {
    const first = upload('B');
    await jest.advanceTimersByTimeAsync(0);
    expect(await statusOf('A')).toBe(429);
    finish();
    await first;
    await jest.advanceTimersByTimeAsync(INGEST_OWED_MS);
    expect(await statusOf('B')).toBe(200);
    // Asking again and not coming back cannot hold B off again: B's uploads go on.
    expect(await statusOf('B')).toBe(200);
  });

  it('owes nothing within INGEST_OWED_LAPSE_MS to a caller that let a turn lapse (a grief loop)', async () => {
    const first = upload('B');
    await jest.advanceTimersByTimeAsync(0);
    expect(await statusOf('A')).toBe(429);
    finish();
    await first;
    await jest.advanceTimersByTimeAsync(INGEST_OWED_MS); // A never came back
    // A asks again while B's next upload runs: refused, and owed nothing this time.
    const held = kbUpload('B');
    await jest.advanceTimersByTimeAsync(0);
    expect(await statusOf('A')).toBe(429);
    releaseKb();
    expect((await held).statusCode).toBe(200);
    expect(await statusOf('B')).toBe(200); // not held off for A
    // Once the lapse has passed, A is owed a turn again.
    await jest.advanceTimersByTimeAsync(INGEST_OWED_LAPSE_MS);
    const again = kbUpload('B');
    await jest.advanceTimersByTimeAsync(0);
    expect(await statusOf('A')).toBe(429);
    releaseKb();
    await again;
    expect(await statusOf('B')).toBe(429);
  });
});
