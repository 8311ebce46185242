import { gzipSync } from 'node:zlib';

import { generateApiKey } from '../src/config/api-key-entries';
import { bootTestApp, type TestApp } from './support/app';

/**
 * What the body parsers take: UTF-8 JSON on every body route, UTF-8 NDJSON on /ingest/* only,
 * no content coding. Everything else is refused with its own stable code, never with
 * Fastify's "body size did not match Content-Length" nor by replacing bytes with U+FFFD.
 */
const OPS = generateApiKey('ops');
const JSON_TYPE = 'application/json';

const utf8 = (text: string) => Buffer.from(text, 'utf8');
/** `before`, then bytes that are not UTF-8, then `after`. */
const broken = (before: string, bytes: number[], after: string) =>
  Buffer.concat([utf8(before), Buffer.from(bytes), utf8(after)]);

/** A record of its own conversation, so a test can ask whether it was stored. */
const record = (conversation: string, text: string) => ({
  conversation_uid: conversation,
  contact_uid: 'ctc_body',
  channel: 'sms',
  occurred_at: '2026-01-05T10:00:00Z',
  sender: 'customer',
  text,
});

describe('request bodies: encoding and media types (e2e)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ API_KEYS: OPS.line });
  });
  afterAll(() => t?.close());

  const send = async (
    path: string,
    body: string | Buffer | ReadableStream<Uint8Array>,
    headers: Record<string, string>,
  ) => {
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OPS.key}`, ...headers },
      body,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      body: (text ? JSON.parse(text) : undefined) as Record<string, unknown>,
    };
  };
  /** The texts stored for the contact's conversation `conversation`, as /search returns them. */
  const stored = async (conversation: string) => {
    const res = await send(
      '/search',
      JSON.stringify({ query: 'grinder', contact_uid: 'ctc_body', top_k: 100 }),
      { 'content-type': JSON_TYPE },
    );
    const hits = res.body.hits as Array<{ conversation_uid: string; content: string }>;
    return hits.filter((h) => h.conversation_uid === conversation).map((h) => h.content);
  };

  describe('invalid UTF-8 is refused with 400 invalid_body_encoding', () => {
    it.each([
      ['bytes that are never UTF-8', [0xff, 0xfe]],
      ['a lone continuation byte', [0x80]],
      ['an overlong encoding of "/"', [0xc0, 0xaf]],
      ['a UTF-16 surrogate encoded as UTF-8', [0xed, 0xa0, 0x80]],
    ])('%s, on a JSON route', async (_what, bytes) => {
      const res = await send('/search', broken('{"query":"grinder', bytes, '"}'), {
        'content-type': JSON_TYPE,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: 'invalid_body_encoding',
        type: 'urn:context-bridge:problem:invalid_body_encoding',
      });
      expect(res.body.message).toMatch(/not valid UTF-8/);
    });

    // F0 9F 98 (a cut 4-byte sequence) and U+FFFD are both 3 bytes: the old parser's length
    // check passed and the message was stored with U+FFFD in place of what was sent.
    it('a cut sequence whose replacement has the same length is not stored as U+FFFD', async () => {
      const body = broken(
        JSON.stringify([record('conv_cut', 'grinder burrs ')]).slice(0, -3),
        [0xf0, 0x9f, 0x98],
        '"}]',
      );
      const res = await send('/ingest/conversations', body, { 'content-type': JSON_TYPE });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_body_encoding');
      expect(await stored('conv_cut')).toEqual([]);
    });

    it('a chunked body (no Content-Length to disagree with) is refused too', async () => {
      const chunks = [utf8('{"query":"grin'), Buffer.from([0xff]), utf8('der"}')];
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = chunks.shift();
          return next ? controller.enqueue(next) : controller.close();
        },
      });
      const res = await send('/search', stream, { 'content-type': JSON_TYPE });
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 400,
        error: 'invalid_body_encoding',
      });
    });

    it('an NDJSON upload with one bad line is refused whole, nothing stored', async () => {
      const good = JSON.stringify(record('conv_nd_good', 'grinder burrs are fine'));
      const bad = broken(
        JSON.stringify(record('conv_nd_bad', 'grinder ')).slice(0, -2),
        [0xe2, 0x82],
        '"}',
      );
      const res = await send('/ingest/conversations', Buffer.concat([utf8(`${good}\n`), bad]), {
        'content-type': 'application/x-ndjson',
      });
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 400,
        error: 'invalid_body_encoding',
      });
      expect(await stored('conv_nd_good')).toEqual([]);
    });

    it('valid multi-byte UTF-8, split across chunks, still parses', async () => {
      const text = 'grinder café 研磨機 ☕ 🙂';
      const bytes = utf8(JSON.stringify([record('conv_utf8', text)]));
      const cut = bytes.indexOf(utf8('🙂')) + 2; // inside the emoji's 4 bytes
      const parts = [bytes.subarray(0, cut), bytes.subarray(cut)];
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          const next = parts.shift();
          return next ? controller.enqueue(next) : controller.close();
        },
      });
      const res = await send('/ingest/conversations', stream, { 'content-type': JSON_TYPE });
      expect(res.body).toMatchObject({ inserted: 1, failed: [] });
      expect((await stored('conv_utf8')).join(' ')).toContain('研磨機 ☕ 🙂');
    });
  });

  describe('a large body decodes in slices (256 KiB) between live requests', () => {
    const SLICE = 256 * 1024;
    /** A /redact body over one slice, whose text's 3-byte characters straddle the boundary. */
    const straddling = (tail: Buffer) => {
      const text = '研'.repeat(64_000); // 192,000 bytes, inside /redact's 64 Ki characters
      for (let pad = 100_000; ; pad++) {
        const head = utf8(`{${' '.repeat(pad)}"text":"`);
        if ((SLICE - head.length) % 3 !== 0) {
          return { text, body: Buffer.concat([head, utf8(text), tail, utf8('"}')]) };
        }
      }
    };

    it('a character cut by the slice boundary comes through whole', async () => {
      const { text, body } = straddling(Buffer.alloc(0));
      const res = await send('/redact', body, { 'content-type': JSON_TYPE });
      expect(res.status).toBe(200);
      expect(res.body.text).toBe(text);
    });

    it('a bad byte in a later slice still refuses the body', async () => {
      const { body } = straddling(Buffer.from([0xff]));
      expect(body.indexOf(0xff)).toBeGreaterThan(SLICE);
      const res = await send('/redact', body, { 'content-type': JSON_TYPE });
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 400,
        error: 'invalid_body_encoding',
      });
    });
  });

  describe('a content coding is refused with 415 unsupported_content_encoding', () => {
    it.each([
      ['a gzip body', 'gzip', gzipSync(utf8('{"query":"grinder"}'))],
      ['a broken gzip body', 'gzip', Buffer.from([0x1f, 0x8b, 0x08, 0, 1, 2, 3])],
      ['gzip that is not gzip at all', 'gzip', utf8('{"query":"grinder"}')],
      ['brotli', 'br', Buffer.from([0x0b, 0x02, 0x80])],
      ['two codings', 'gzip, identity', gzipSync(utf8('{"query":"grinder"}'))],
    ])('%s', async (_what, coding, body) => {
      const res = await send('/search', body, {
        'content-type': JSON_TYPE,
        'content-encoding': coding,
      });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({ error: 'unsupported_content_encoding', status: 415 });
      expect(res.headers.get('accept-encoding')).toBe('identity');
    });

    it('identity is no coding at all', async () => {
      const res = await send('/search', '{"query":"grinder"}', {
        'content-type': JSON_TYPE,
        'content-encoding': 'identity',
      });
      expect(res.status).toBe(200);
    });
  });

  describe('a body type a route does not take is 415 unsupported_media_type', () => {
    it.each([
      ['text/plain on /search', '/search', 'text/plain'],
      ['text/plain on /context', '/context', 'text/plain; charset=utf-8'],
      ['text/plain on /ingest/conversations', '/ingest/conversations', 'text/plain'],
      ['a form on /redact', '/redact', 'application/x-www-form-urlencoded'],
      ['NDJSON on a JSON-only route', '/search', 'application/x-ndjson'],
      ['XML on /ingest/kb', '/ingest/kb', 'application/xml'],
    ])('%s', async (_what, path, type) => {
      const res = await send(path, '{"query":"grinder","transcript":"grinder"}', {
        'content-type': type,
      });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({
        error: 'unsupported_media_type',
        type: 'urn:context-bridge:problem:unsupported_media_type',
      });
      expect(res.body.message).toMatch(/application\/json/);
    });

    it('a body without any Content-Type', async () => {
      const res = await send('/search', utf8('{"query":"grinder"}'), {});
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 415,
        error: 'unsupported_media_type',
      });
    });

    it('the documented types still work: JSON anywhere, NDJSON on /ingest/*', async () => {
      const ndjson = [record('conv_nd_1', 'grinder one'), record('conv_nd_2', 'grinder two')]
        .map((r) => JSON.stringify(r))
        .join('\n');
      const kb = JSON.stringify({
        topic_id: 'topic_body',
        title: 'Grinders',
        summary: 'How to clean a grinder.',
        text: 'Brush the burrs weekly.',
      });
      // One after another: INGEST_MAX_INFLIGHT is 1.
      const answers = [
        await send('/ingest/conversations', ndjson, { 'content-type': 'application/x-ndjson' }),
        await send('/ingest/kb', kb, { 'content-type': 'application/x-ndjson; charset=utf-8' }),
        await send('/ingest/conversations', JSON.stringify([record('conv_js', 'grinder json')]), {
          'content-type': 'Application/JSON; charset=UTF-8',
        }),
        await send('/search', '{"query":"grinder"}', { 'content-type': JSON_TYPE }),
      ];
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
      expect(answers.slice(0, 3).map((a) => a.body.failed)).toEqual([[], [], []]);
    });
  });
});
