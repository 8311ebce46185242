import Fastify, { type FastifyInstance } from 'fastify';

import { INGEST_REFUSAL_HOLD_MS, registerIngestAdmission } from './ingest-admission';

describe('registerIngestAdmission', () => {
  let app: FastifyInstance;
  let finish: () => void;

  beforeEach(async () => {
    // Only timers: light-my-request's own ticks stay real.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    app = Fastify();
    registerIngestAdmission(app, {
      maxInFlight: 1,
      maxRecords: 10,
      reject: () => undefined,
      countRefused: () => Promise.resolve(),
    });
    const running = new Promise<void>((resolve) => (finish = resolve));
    app.post('/ingest/conversations', async () => {
      await running;
      return { ok: true };
    });
    await app.ready();
  });

  afterEach(async () => {
    finish();
    jest.useRealTimers();
    await app.close();
  });

  const upload = () =>
    app.inject({ method: 'POST', url: '/ingest/conversations', payload: [{ a: 1 }] });

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
});
