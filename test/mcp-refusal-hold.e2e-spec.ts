import { connect } from 'node:net';

import { CallerHolds, MCP_HOLD_MS } from '../src/adapters/mcp/caller-holds';
import { McpToolsService } from '../src/adapters/mcp/mcp-tools.service';
import { generateApiKey } from '../src/config/api-key-entries';
import { bootTestApp, postJson, type TestApp } from './support/app';

const keys = ['mcp-a', 'mcp-b', 'mcp-c', 'mcp-d'].map((name) => generateApiKey(name));
const [a, b] = keys;
/** A small bound, so that the test can pass it. */
const MAX_CALLERS = 3;
const ACCEPT = 'application/json, text/event-stream';
const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const batch = (size: number) =>
  Array.from({ length: size }, (_, id) => ({ ...listTools, id: id + 1 }));

/**
 * `POST /mcp` over a raw socket that sends its headers and the first byte of a 64 KB body, and
 * never the rest: the answer can only come before the body is read.
 */
function unreadBody(url: string, key: string) {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  socket.on('error', () => undefined); // the server closes on us: that is the point
  socket.write(
    `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n` +
      `accept: ${ACCEPT}\r\nauthorization: Bearer ${key}\r\ncontent-length: 65536\r\n\r\n[`,
  );
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  return new Promise<{ status: number; head: string; error?: string }>((resolve) =>
    socket.once('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
        head: head.toLowerCase(),
        error: /"error"\s*:\s*"([^"]+)"/.exec(body)?.[1],
      });
    }),
  );
}

describe('MCP refusal hold: a refused caller is refused unread for a while (e2e)', () => {
  let t: TestApp;
  let now = 1_000_000;
  const holds = new CallerHolds({ maxCallers: MAX_CALLERS, perf: { now: () => now } });
  const mcp = (body: unknown, key?: string) =>
    postJson<{ error?: string }>(
      `${t.url}/mcp`,
      body,
      key ? { accept: ACCEPT, authorization: `Bearer ${key}` } : { accept: ACCEPT },
    );

  beforeAll(async () => {
    t = await bootTestApp(
      {
        API_KEYS: keys.map((k) => k.line).join(','),
        RATE_LIMIT_PER_IP_PER_MINUTE: '2', // keyless requests: only the rate-limit test's
        // Old code waits for the unread body this long, then answers 408 (not a hang).
        HTTP_BODY_TIMEOUT_MS: '1500',
      },
      (builder) => builder.overrideProvider(CallerHolds).useValue(holds),
    );
  });
  afterAll(() => t?.close());
  afterEach(() => {
    holds.clear();
    jest.restoreAllMocks();
  });

  it('answers a refused batch’s caller 429 mcp_caller_held with Retry-After, its body unread', async () => {
    const refused = await mcp(batch(100), a.key);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('mcp_batch_too_large');
    const createServer = jest.spyOn(t.app.get(McpToolsService), 'createServer');
    const held = await unreadBody(t.url, a.key);
    // Old code: 408 body_timeout, after waiting for the body.
    expect(held).toMatchObject({ status: 429, error: 'mcp_caller_held' });
    expect(held.head).toContain(`retry-after: ${MCP_HOLD_MS / 1000}`);
    expect(held.head).toContain('connection: close');
    expect(createServer).not.toHaveBeenCalled();
  });

  it('leaves another key unaffected while one is held', async () => {
    expect((await mcp(batch(100), a.key)).status).toBe(400);
    const createServer = jest.spyOn(t.app.get(McpToolsService), 'createServer');
    const other = await mcp(listTools, b.key);
    expect(other.status).toBe(200);
    const held = await mcp(listTools, a.key);
    expect(held.status).toBe(429); // old code: 200
    expect(held.body.error).toBe('mcp_caller_held');
    expect(createServer).toHaveBeenCalledTimes(1); // B's only
  });

  it('lets the caller in again when the hold expires', async () => {
    expect((await mcp(batch(100), a.key)).status).toBe(400);
    expect((await mcp(listTools, a.key)).status).toBe(429); // old code: 200
    now += MCP_HOLD_MS;
    expect((await mcp(listTools, a.key)).status).toBe(200);
  });

  it(`holds at most ${MAX_CALLERS} callers: past the bound the oldest hold is dropped`, async () => {
    for (const key of keys) {
      expect((await mcp(batch(100), key.key)).status).toBe(400);
    }
    expect(holds.size).toBe(MAX_CALLERS);
    expect((await mcp(listTools, keys[0].key)).status).toBe(200); // the first, dropped
    expect((await mcp(listTools, keys[keys.length - 1].key)).status).toBe(429); // old code: 200
  });

  it('counts a body refused before the guard ran against the per-IP rate limit', async () => {
    for (let i = 0; i < 2; i++) {
      const malformed = await mcp('{"jsonrpc":');
      expect(malformed.status).toBe(400);
      expect(malformed.body.error).toBe('invalid_json');
      now += MCP_HOLD_MS; // past the hold, so the next one reaches the parser again
    }
    const next = await mcp(listTools);
    // Old code: the two malformed bodies were never counted, so this one is only 401.
    expect(next.status).toBe(429);
    expect(next.body.error).toBe('rate_limited');
  });
});
