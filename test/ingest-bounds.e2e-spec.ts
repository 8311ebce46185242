import { connect, type Socket } from 'node:net';

import { SERVER_TIMEOUTS } from '../src/create-app';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { HISTORY } from './support/auth-fixtures';

/** A raw HTTP/1.1 request whose body the test sends (or withholds) by hand. */
function openUpload(url: string, path: string, contentType: string, length: number) {
  const { port } = new URL(url);
  const socket: Socket = connect(Number(port), '127.0.0.1');
  socket.on('error', () => undefined); // the server may close on us: that is the point
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: ${contentType}\r\n` +
      `content-length: ${length}\r\n\r\n`,
  );
  let received = '';
  const response = new Promise<{ status: number; body: { error?: string }; text: string }>(
    (resolve) => {
      const settle = () => {
        const [head = '', body = ''] = received.split('\r\n\r\n');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        const json = body.slice(body.indexOf('{'), body.lastIndexOf('}') + 1);
        resolve({ status, body: json ? (JSON.parse(json) as { error?: string }) : {}, text: head });
      };
      socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
      socket.once('close', settle);
    },
  );
  return { socket, response };
}

describe('ingest bounds: body deadline and streaming record counts (e2e)', () => {
  let t: TestApp;
  const upload = (records: unknown) =>
    postJson<{ error?: string }>(`${t.url}/ingest/conversations`, records);

  beforeAll(async () => {
    t = await bootTestApp({
      INGEST_MAX_INFLIGHT: '1',
      INGEST_MAX_RECORDS: '10',
      // Short, so the trickled upload ends quickly, yet long enough that a loaded box's
      // event loop cannot fail the whole uploads the other tests send (over 1 MB).
      HTTP_BODY_TIMEOUT_MS: '2000',
    });
  });
  afterAll(() => t?.close());

  it('gives the server request, socket and keep-alive timeouts (Fastify defaults none)', () => {
    const server = t.app.getHttpServer();
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeout);
    expect(server.timeout).toBe(SERVER_TIMEOUTS.connectionTimeout);
    expect(server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeout);
    expect(Object.values(SERVER_TIMEOUTS).every((ms) => ms > 0)).toBe(true);
  });

  it('answers a trickled body 408 body_timeout, closes it, and frees the ingest slot', async () => {
    const slow = openUpload(t.url, '/ingest/conversations', 'application/json', 1_000_000);
    slow.socket.write('['); // one byte, then nothing: a slow-loris upload holding the slot
    const meanwhile = await upload(HISTORY.slice(0, 1));
    expect(meanwhile.body.error).toBe('ingest_busy');

    const { status, body, text } = await slow.response; // old code: never answers
    expect(status).toBe(408);
    expect(body.error).toBe('body_timeout');
    expect(text.toLowerCase()).toContain('connection: close');
    expect((await upload(HISTORY.slice(0, 1))).status).toBe(200);
  });

  it('stops reading NDJSON at the first record past INGEST_MAX_RECORDS', async () => {
    const line = `${JSON.stringify(HISTORY[0])}\n`;
    // 11 records, then the body never ends: only counting while streaming can answer.
    const flood = openUpload(t.url, '/ingest/conversations', 'application/x-ndjson', 10_000_000);
    flood.socket.write(line.repeat(11));
    const { status, body } = await flood.response;
    expect(status).toBe(400);
    expect(body.error).toBe('too_many_records');
  });

  it('counts the elements of a JSON array while it streams, at any nesting', async () => {
    const nested = { ...HISTORY[0], text: 'a, [b], {"c": [1,2,3]}' };
    const flood = openUpload(t.url, '/ingest/conversations', 'application/json', 10_000_000);
    flood.socket.write(`[${Array.from({ length: 11 }, () => JSON.stringify(nested)).join(',')}`);
    const { status, body } = await flood.response;
    expect(status).toBe(400);
    expect(body.error).toBe('too_many_records');
    // Exactly the cap is fine: strings and nested arrays hold commas that are no records.
    const atCap = await upload(Array.from({ length: 10 }, () => nested));
    expect(atCap.status).toBe(200);
  });

  it('parses a JSON body over 1 MB in slices, to the same records and errors', async () => {
    // Unknown fields are stripped: the padding only makes the body large.
    const padded = HISTORY.slice(0, 2).map((r) => ({ ...r, pad: 'x'.repeat(600_000) }));
    const big = await upload(padded);
    expect(big.status).toBe(200);
    expect(big.body).toMatchObject({ received: 2, failed: [] });
    const broken = await postJson<{ error?: string }>(
      `${t.url}/ingest/conversations`,
      `${JSON.stringify(padded).slice(0, -1)},]`,
    );
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('invalid_json');
  });

  it('refuses an NDJSON line longer than a record can be (413 record_too_large)', async () => {
    const huge = `{"text":"${'x'.repeat(2 * 1024 * 1024)}"}\n`;
    const { status, body } = await postJson<{ error?: string }>(
      `${t.url}/ingest/conversations`,
      huge,
      { 'content-type': 'application/x-ndjson' },
    );
    expect(status).toBe(413);
    expect(body.error).toBe('record_too_large');
  });
});
