import net from 'node:net';

import { MAX_PIPELINED_REQUESTS } from '../src/common/pipeline-cap';
import { bootTestApp, type TestApp } from './support/app';

/**
 * A held-out attack on connections: HTTP/1.1 pipelining. Node hands every request a socket
 * has sent to the app at once, read or not: 20,000 `GET /health/live` in one 800 KB write
 * (a route no rate limit covers) were all answered, the event loop busy for seconds.
 */
interface Pipelined {
  statuses: number[];
  errors: string[];
  closedByServer: boolean;
}

/** Writes `count` requests in one go, then reads until the server closes or goes quiet. */
function pipeline(url: string, count: number, path = '/health/live'): Promise<Pipelined> {
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), '127.0.0.1');
    let received = '';
    let quiet: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      clearTimeout(quiet);
      socket.destroy();
      resolve({
        statuses: [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])),
        errors: [...received.matchAll(/"error":"([a-z_]+)"/g)].map((m) => m[1]),
        closedByServer,
      });
    };
    // Not a deadline on the server: the end of what this test waits to read.
    const idle = () => {
      clearTimeout(quiet);
      quiet = setTimeout(() => finish(false), 3000);
    };
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      idle();
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`.repeat(count));
    idle();
  });
}

describe('hostile connections (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ RATE_LIMIT_PER_IP_PER_MINUTE: '0' });
  });
  afterAll(() => t?.close());

  it(`answers ${MAX_PIPELINED_REQUESTS} pipelined requests on one connection, as a client that pipelines expects`, async () => {
    const res = await pipeline(t.url, MAX_PIPELINED_REQUESTS);
    expect(res.statuses).toEqual(Array<number>(MAX_PIPELINED_REQUESTS).fill(200));
    expect(res.closedByServer).toBe(false);
  });

  it('refuses the request past the cap with 429 pipeline_too_deep and closes the connection', async () => {
    const res = await pipeline(t.url, MAX_PIPELINED_REQUESTS + 1);
    expect(res.statuses).toEqual([...Array<number>(MAX_PIPELINED_REQUESTS).fill(200), 429]);
    expect(res.errors).toEqual(['pipeline_too_deep']);
    expect(res.closedByServer).toBe(true);
  });

  it('does not run a flood of 5,000 pipelined requests: the connection is cut, others are served', async () => {
    const res = await pipeline(t.url, 5000);
    // Was 5,000 answers; now at most the cap and its refusal, often none (cut at once).
    expect(res.statuses.length).toBeLessThanOrEqual(MAX_PIPELINED_REQUESTS + 1);
    expect(res.closedByServer).toBe(true);
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
  });

  it.each([
    ['a malformed URL', '/%ZZ'],
    ['an over-long path parameter', `/contacts/forget/receipts/${'a'.repeat(400)}`],
  ])(
    'counts requests the router refuses before any hook (%s): a flood of them is cut too',
    async (_name, path) => {
      // Fastify answers these from frameworkErrors, where onRequest hooks never run.
      const res = await pipeline(t.url, 5000, path);
      // Were 5,000 answers; now at most the cap and its refusal, often none (cut at once).
      expect(res.statuses.length).toBeLessThanOrEqual(MAX_PIPELINED_REQUESTS + 1);
      expect(res.closedByServer).toBe(true);
    },
  );

  it('refuses the malformed URL past the cap with 429 pipeline_too_deep too', async () => {
    const res = await pipeline(t.url, MAX_PIPELINED_REQUESTS + 1, '/%ZZ');
    expect(res.statuses).toEqual([...Array<number>(MAX_PIPELINED_REQUESTS).fill(400), 429]);
    expect(res.errors.at(-1)).toBe('pipeline_too_deep');
    expect(res.closedByServer).toBe(true);
  });

  it.each([
    [
      'headers over 16 KiB',
      `GET /health/live HTTP/1.1\r\nHost: x\r\nx-a: ${'a'.repeat(70_000)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    [
      '2,000 headers',
      `GET /health/live HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2000 }, (_, i) => `x-h${i}: v`).join('\r\n')}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    [
      'two Content-Lengths',
      'POST /redact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 12\r\nContent-Length: 13\r\n\r\n{"text":"a"}',
      400,
      'malformed_request',
    ],
    [
      'a 100 KB chunk extension',
      `POST /redact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5;x=${'a'.repeat(100_000)}\r\n{"te"\r\n0\r\n\r\n`,
      400,
      'malformed_request',
    ],
    [
      'Content-Length and chunked (smuggling)',
      'POST /redact HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n',
      400,
      'malformed_request',
    ],
  ])(
    '%s: Node refuses it, as a problem with a stable code (was Fastify\'s {"error":"Bad Request"})',
    async (_name, raw, status, code) => {
      const answer = await new Promise<string>((resolve) => {
        const socket = net.connect(Number(new URL(t.url).port), '127.0.0.1');
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        socket.on('close', () => resolve(received));
        socket.on('error', () => resolve(received));
        socket.write(raw);
      });
      const [head, body] = answer.split('\r\n\r\n');
      expect(head.split('\r\n')[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(head.toLowerCase()).toContain('content-type: application/problem+json');
      expect(JSON.parse(body)).toMatchObject({
        type: `urn:context-bridge:problem:${code}`,
        status,
        error: code,
        request_id: expect.any(String) as string,
      });
    },
  );

  it('counts per connection, not per client: sequential keep-alive requests never hit it', async () => {
    const agent = net.connect(Number(new URL(t.url).port), '127.0.0.1');
    let received = '';
    agent.on('data', (chunk) => (received += chunk.toString('latin1')));
    for (let i = 1; i <= MAX_PIPELINED_REQUESTS * 3; i++) {
      agent.write('GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
      // One at a time: the next is sent once the previous answer is in.
      await new Promise<void>((resolve) => {
        const check = () =>
          (received.match(/HTTP\/1\.1 200 /g)?.length ?? 0) >= i ? resolve() : setTimeout(check, 5);
        check();
      });
    }
    agent.destroy();
    expect(received.match(/HTTP\/1\.1 \d{3} /g)).toHaveLength(MAX_PIPELINED_REQUESTS * 3);
  });
});
