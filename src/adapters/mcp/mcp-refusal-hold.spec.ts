import Fastify, { type FastifyInstance } from 'fastify';

import { CallerHolds, MCP_HOLD_MS } from './caller-holds';
import {
  MCP_HELD_ANSWER_DELAY_MS,
  MCP_HELD_MAX_DELAYED,
  registerMcpRefusalHold,
} from './mcp-refusal-hold';

describe('registerMcpRefusalHold', () => {
  let app: FastifyInstance;
  let now: number;
  let holds: CallerHolds;
  let bodiesRead: number;
  let handled: number;
  let countRefused: jest.Mock;

  beforeEach(async () => {
    // Only timers: light-my-request's own ticks stay real.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    now = 1_000_000;
    holds = new CallerHolds({ perf: { now: () => now } });
    bodiesRead = handled = 0;
    countRefused = jest.fn(() => Promise.resolve());
    app = Fastify();
    app.addHook('preParsing', (_request, _reply, payload, done) => {
      bodiesRead++;
      done(null, payload);
    });
    registerMcpRefusalHold(app, {
      holds,
      callerOf: (request) => String(request.headers['x-caller']),
      countRefused,
    });
    // What the controller answers (a batch over 8 is 400), or the guard's answer in x-answer.
    const handler = (request: { body: unknown; headers: Record<string, unknown> }) => {
      handled++;
      if (request.headers['x-answer']) {
        return { status: Number(request.headers['x-answer']) };
      }
      return { status: Array.isArray(request.body) && request.body.length > 8 ? 400 : 200 };
    };
    for (const url of ['/mcp', '/other']) {
      app.post(url, async (request, reply) => {
        const { status } = handler(request);
        return reply.code(status).send({ status });
      });
    }
    await app.ready();
  });

  afterEach(async () => {
    jest.useRealTimers();
    await app.close();
  });

  const post = (caller: string, payload: unknown, url = '/mcp', headers = {}) =>
    app.inject({
      method: 'POST',
      url,
      payload: JSON.stringify(payload),
      headers: {
        'content-type': 'application/json',
        'x-caller': caller,
        ...headers,
      },
    });
  const batch = (size: number) => Array.from({ length: size }, (_, id) => ({ jsonrpc: '2.0', id }));

  /** A request answered past the held refusal's delay. */
  async function held(caller: string, payload: unknown = batch(1)) {
    const answer = post(caller, payload);
    await jest.advanceTimersByTimeAsync(MCP_HELD_ANSWER_DELAY_MS);
    return answer;
  }

  it('refuses a caller refused once with 429 mcp_caller_held before its body is read', async () => {
    expect((await post('key:a', batch(100))).statusCode).toBe(400);
    expect(countRefused).not.toHaveBeenCalled(); // the handler's guard counted it
    const [readBefore, handledBefore] = [bodiesRead, handled];
    const response = await held('key:a');
    expect(response.statusCode).toBe(429);
    expect(response.json()).toMatchObject({ error: 'mcp_caller_held', status: 429 });
    expect(response.headers['retry-after']).toBe(String(MCP_HOLD_MS / 1000));
    expect(response.headers.connection).toBe('close');
    expect(bodiesRead).toBe(readBefore); // old code: read, parsed and handled
    expect(handled).toBe(handledBefore);
  });

  it('sends a held refusal after MCP_HELD_ANSWER_DELAY_MS, so a looping caller comes back slowly', async () => {
    await post('key:a', batch(100));
    let answered = false;
    const refused = post('key:a', batch(1)).finally(() => (answered = true));
    await jest.advanceTimersByTimeAsync(MCP_HELD_ANSWER_DELAY_MS - 1);
    expect(answered).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect((await refused).statusCode).toBe(429);
  });

  it('leaves other callers, and the held caller on other routes, alone', async () => {
    await post('key:a', batch(100));
    expect((await post('key:b', batch(1))).statusCode).toBe(200);
    expect((await post('key:a', batch(1), '/other')).statusCode).toBe(200);
    expect((await post('key:b', batch(100), '/other')).statusCode).toBe(400);
    expect((await post('key:b', batch(1))).statusCode).toBe(200); // /other's 400 holds nothing
  });

  it('lets the caller in again once the hold ends; held refusals do not renew it', async () => {
    await post('key:a', batch(100));
    now += MCP_HOLD_MS - 1000;
    expect((await held('key:a')).statusCode).toBe(429);
    now += 1000;
    expect((await post('key:a', batch(1))).statusCode).toBe(200);
  });

  it.each([
    ['malformed JSON (400)', '{"jsonrpc":', 'application/json'],
    ['a body that is not JSON (415)', '<a/>', 'application/xml'],
  ])(
    'holds a caller after %s, and counts it against the rate limit the guard never ran',
    async (_name, payload, type) => {
      const response = await app.inject({
        method: 'POST',
        url: '/mcp',
        payload,
        headers: { 'content-type': type, 'x-caller': 'ip:10.0.0.9' },
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(handled).toBe(0);
      expect(countRefused).toHaveBeenCalledTimes(1); // old code: uncounted, the guard never ran
      expect((await held('ip:10.0.0.9')).statusCode).toBe(429);
      expect(countRefused).toHaveBeenCalledTimes(1); // a held refusal is not counted again
    },
  );

  it('holds on a body over the limit (413, refused by its Content-Length)', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/mcp',
      payload: 'x'.repeat(2 * 1024 * 1024),
      headers: { 'content-type': 'application/json', 'x-caller': 'ip:10.0.0.7' },
    });
    expect(response.statusCode).toBe(413);
    expect((await held('ip:10.0.0.7')).statusCode).toBe(429);
  });

  it('holds a caller the guard refused as over its rate limit (429)', async () => {
    expect((await post('key:a', batch(1), '/mcp', { 'x-answer': '429' })).statusCode).toBe(429);
    expect((await held('key:a')).json()).toMatchObject({ error: 'mcp_caller_held' });
    expect(countRefused).not.toHaveBeenCalled(); // the guard counted it
  });

  it.each([401, 403, 500, 503])(
    'does not hold a caller answered %i (not its body’s fault)',
    async (status) => {
      expect(
        (await post('ip:10.0.0.8', batch(1), '/mcp', { 'x-answer': String(status) })).statusCode,
      ).toBe(status);
      expect((await post('ip:10.0.0.8', batch(1))).statusCode).toBe(200);
      expect(countRefused).not.toHaveBeenCalled();
    },
  );

  it(`answers held refusals past ${MCP_HELD_MAX_DELAYED} waiting at once without the delay`, async () => {
    await post('key:a', batch(100));
    let answered = 0;
    const refusals = Array.from({ length: MCP_HELD_MAX_DELAYED + 3 }, () =>
      post('key:a', batch(1)).then((r) => (answered++, r)),
    );
    await jest.advanceTimersByTimeAsync(MCP_HELD_ANSWER_DELAY_MS - 1);
    expect(answered).toBe(3); // old code: no hold at all; unbounded: 0 until the delay ends
    await jest.advanceTimersByTimeAsync(1);
    const statuses = (await Promise.all(refusals)).map((r) => r.statusCode);
    expect(statuses.every((status) => status === 429)).toBe(true);
  });
});
