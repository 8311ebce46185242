import { request as httpRequest } from 'node:http';

import { liveTraffic } from '@app/common';

import { type IngestReport } from '../src/ingest/ingest.dto';
import { IngestService } from '../src/ingest/ingest.service';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { HISTORY } from './support/auth-fixtures';

type Outcome = 'succeed' | 'fail';

describe('ingest admission holds the slot until the work ends (e2e)', () => {
  let t: TestApp;
  let ingest: IngestService;
  const upload = (records: unknown) =>
    postJson<{ error?: string }>(`${t.url}/ingest/conversations`, records);

  beforeAll(async () => {
    t = await bootTestApp({ INGEST_MAX_INFLIGHT: '1' });
    ingest = t.app.get(IngestService);
  });
  afterAll(() => t?.close());
  afterEach(() => jest.restoreAllMocks());

  /** The next ingestion starts, then waits for `finish` before it succeeds or fails. */
  function holdNextIngestion() {
    const real = ingest.ingestConversationsBody.bind(ingest);
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let finish!: (outcome: Outcome) => void;
    const outcome = new Promise<Outcome>((resolve) => (finish = resolve));
    let settled: Promise<IngestReport> | undefined;
    jest.spyOn(ingest, 'ingestConversationsBody').mockImplementationOnce((input, scope) => {
      started();
      settled = outcome.then((o) =>
        o === 'fail' ? Promise.reject(new Error('injected ingest failure')) : real(input, scope),
      );
      return settled;
    });
    return {
      running,
      finish: async (o: Outcome) => {
        finish(o);
        await settled?.catch(() => undefined);
        // The slot frees as the handler's result settles through Nest: a macrotask later
        // every microtask of that chain has run.
        await new Promise((resolve) => setImmediate(resolve));
      },
    };
  }

  /** Uploads, and hangs up once the work has started; resolves when the server saw it go. */
  async function uploadAndHangUp(running: Promise<void>): Promise<void> {
    const server = t.app.getHttpServer();
    const gone = new Promise<void>((resolve) =>
      server.once('request', (_req, res) => res.once('close', () => resolve())),
    );
    const { port } = new URL(t.url);
    const body = JSON.stringify(HISTORY.slice(0, 2));
    const client = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/ingest/conversations',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    client.on('error', () => undefined); // we hang up on purpose
    client.end(body);
    await running;
    client.destroy();
    await gone;
  }

  it.each<Outcome>(['succeed', 'fail'])(
    'a caller that hangs up does not free the slot; the work ending does (%s)',
    async (outcome) => {
      const held = holdNextIngestion();
      await uploadAndHangUp(held.running);

      const meanwhile = await upload(HISTORY.slice(2, 3));
      expect(meanwhile.status).toBe(429);
      expect(meanwhile.body.error).toBe('ingest_busy');

      await held.finish(outcome);
      expect((await upload(HISTORY.slice(2, 3))).status).toBe(200);
    },
  );

  it('frees the slot of a request that never reaches the work, or fails validation', async () => {
    const bad = await postJson<{ error?: string }>(`${t.url}/ingest/conversations`, '[{');
    expect(bad.body.error).toBe('invalid_json');
    const empty = await upload([]);
    expect(empty.body.error).toBe('empty_batch');
    expect((await upload(HISTORY.slice(3, 4))).status).toBe(200);
  });

  // Last: from here on live traffic is present, and ingestions pace themselves for a while.
  it('a /context call counts as live traffic, which ingestions and forgets yield to', async () => {
    const before = liveTraffic.calls;
    const bundle = await postJson(`${t.url}/context`, {
      transcript: 'where is my order',
      contact_uid: 'ctc_live_marker',
    });
    expect(bundle.status).toBe(200);
    expect(liveTraffic.calls).toBe(before + 1);
  });
});
