import { DEMO_TOPICS } from '../src/demo/demo-kb';
import { type IngestReport } from '../src/ingest/ingest.dto';
import { IngestService } from '../src/ingest/ingest.service';
import { type SearchResponseDto } from '../src/retrieval/search.dto';
import { bootTestApp, postJson, type TestApp } from './support/app';

const message = (
  conversation: string,
  contact: string,
  minute: number,
  sender: string,
  text: string,
) => ({
  conversation_uid: conversation,
  contact_uid: contact,
  location_uid: 'loc_1',
  channel: 'sms',
  occurred_at: new Date(Date.UTC(2026, 0, 5, 10, minute)).toISOString(),
  sender,
  text,
});

const HISTORY = [
  message(
    'c1',
    'ctc_a',
    0,
    'customer',
    'My espresso machine leaks water from the bottom every morning.',
  ),
  message('c1', 'ctc_a', 1, 'agent', 'Sorry to hear that. Is the drip tray seated correctly?'),
  message('c1', 'ctc_a', 2, 'customer', 'Yes, the leak comes from the boiler gasket I think.'),
  message('c2', 'ctc_a', 10, 'customer', 'Can I change the delivery address for my grinder order?'),
  message('c2', 'ctc_a', 11, 'agent', 'Yes, the grinder has not shipped yet so we can update it.'),
  message('c3', 'ctc_b', 0, 'customer', 'The espresso machine I bought is leaking water too.'),
  message('c3', 'ctc_b', 1, 'agent', 'We will send a replacement gasket kit today.'),
];

describe('retrieval core (e2e, real app on Fastify + PGlite/pgvector + local embedder)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp();
  });
  afterAll(() => t.close().catch(() => undefined));

  it('reports ready once the store is migrated and the embedder loaded', async () => {
    const response = await fetch(`${t.url}/health/ready`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, embedder: { status: 'up', model: 'use-lite-512' } },
    });
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
  });

  it('ingests conversations, then finds them by meaning, filtered per contact', async () => {
    const ingest = await postJson<IngestReport>(`${t.url}/ingest/conversations`, HISTORY);
    expect(ingest.status).toBe(200);
    expect(ingest.body).toEqual({ received: 7, inserted: 3, skipped: 0, failed: [] });

    const search = await postJson<SearchResponseDto>(`${t.url}/search`, {
      query: 'coffee machine is dripping water',
      contact_uid: 'ctc_a',
      top_k: 5,
    });
    expect(search.status).toBe(200);
    expect(search.body.hits).toHaveLength(2);
    expect(search.body.hits.every((h) => h.contact_uid === 'ctc_a')).toBe(true);
    expect(search.body.hits[0]).toMatchObject({ conversation_uid: 'c1', channel: 'sms' });
    expect(search.body.hits[0].content).toContain('boiler gasket');
    expect(search.body.hits[0].score).toBeGreaterThan(search.body.hits[1].score);

    const unfiltered = await postJson<SearchResponseDto>(`${t.url}/search`, {
      query: 'leaking espresso machine',
      top_k: 3,
    });
    expect(new Set(unfiltered.body.hits.map((h) => h.contact_uid))).toEqual(
      new Set(['ctc_a', 'ctc_b']),
    );
  });

  it('re-ingesting the same data inserts nothing', async () => {
    const again = await postJson<IngestReport>(`${t.url}/ingest/conversations`, HISTORY);
    expect(again.body).toEqual({ received: 7, inserted: 0, skipped: 3, failed: [] });
  });

  it('reports bad records by index and keeps the good ones (NDJSON)', async () => {
    const good = message(
      'c9',
      'ctc_c',
      0,
      'customer',
      'Please cancel my subscription to the bean club.',
    );
    const lines = [
      JSON.stringify(good),
      '{not json',
      JSON.stringify({ ...good, occurred_at: 'yesterday' }),
      JSON.stringify({ ...good, text: '   ' }),
      JSON.stringify(
        message('c9', 'ctc_c', 1, 'agent', 'Done, the bean club subscription is cancelled.'),
      ),
    ].join('\n');
    const response = await fetch(`${t.url}/ingest/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
      body: lines,
    });
    const report = (await response.json()) as IngestReport;
    expect(response.status).toBe(200);
    expect(report).toMatchObject({ received: 5, inserted: 1, skipped: 0 });
    expect(report.failed.map((f) => f.index)).toEqual([1, 2, 3]);
    expect(report.failed[0].error).toBe('invalid JSON');
    expect(report.failed[1].error).toMatch(/occurred_at/);
    const search = await postJson<SearchResponseDto>(`${t.url}/search`, {
      query: 'cancel subscription',
      contact_uid: 'ctc_c',
    });
    expect(search.body.hits[0].content).toContain('bean club subscription is cancelled');
  });

  it('takes ingestion bodies past the 1 MB default; any other route answers 413', async () => {
    const padding = ' '.repeat(1_200_000); // valid JSON whitespace, nothing to embed
    const record = message('c8', 'ctc_d', 0, 'customer', 'The kettle lid will not stay shut.');
    const big = await postJson<IngestReport>(
      `${t.url}/ingest/conversations`,
      `[${padding}${JSON.stringify(record)}]`,
    );
    expect(big.status).toBe(200);
    expect(big.body).toMatchObject({ received: 1, inserted: 1 });
    const search = await postJson(`${t.url}/search`, `{${padding}"query":"kettle lid"}`);
    expect(search.status).toBe(413);
  });

  it('ingests KB topics idempotently: chunks and summaries, replaced per topic', async () => {
    const first = await postJson<IngestReport>(`${t.url}/ingest/kb`, DEMO_TOPICS.slice(0, 2));
    expect(first.body.failed).toEqual([]);
    expect(first.body.inserted).toBeGreaterThanOrEqual(4);
    const again = await postJson<IngestReport>(`${t.url}/ingest/kb`, DEMO_TOPICS.slice(0, 2));
    expect(again.body).toMatchObject({ inserted: 0, skipped: first.body.inserted });
    const bad = await postJson<IngestReport>(`${t.url}/ingest/kb`, [{ topic_id: 'x' }]);
    expect(bad.body.failed).toHaveLength(1);
  });

  it('answers bad requests with a stable error shape and a request id', async () => {
    const tooMany = await postJson<Record<string, string>>(`${t.url}/search`, {
      query: 'x',
      top_k: 0,
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ error: 'validation_failed' });
    expect(tooMany.body.request_id).toBe(tooMany.headers.get('x-request-id'));

    const unknown = await postJson<Record<string, string>>(`${t.url}/search`, {
      query: 'x',
      extra: 1,
    });
    expect(unknown.body).toMatchObject({
      error: 'validation_failed',
      message: expect.stringContaining('extra'),
    });

    const badJson = await postJson<Record<string, string>>(`${t.url}/search`, '{"query":', {
      'x-request-id': 'trace-42',
    });
    expect(badJson.status).toBe(400);
    expect(badJson.body).toEqual({
      type: 'urn:context-bridge:problem:invalid_json',
      title: expect.any(String),
      status: 400,
      detail: badJson.body.message,
      error: 'invalid_json',
      message: expect.any(String),
      request_id: 'trace-42',
    });

    const empty = await postJson<Record<string, string>>(`${t.url}/ingest/conversations`, []);
    expect(empty.body.error).toBe('empty_batch');

    const missing = await fetch(`${t.url}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: 'not_found' });
  });

  it('drains in-flight requests on shutdown (graceful SIGTERM path)', async () => {
    const records = Array.from({ length: 24 }, (_, i) =>
      message(
        `drain_${i}`,
        'ctc_drain',
        i,
        'customer',
        `Question number ${i} about the warranty on my kettle.`,
      ),
    );
    // The service holds the request until the shutdown has begun: it really starts mid-request.
    const ingest = t.app.get(IngestService);
    const original = ingest.ingestConversationsBody.bind(ingest);
    let arrived!: () => void;
    const atService = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    jest.spyOn(ingest, 'ingestConversationsBody').mockImplementation(async (...args) => {
      arrived();
      await gate;
      return original(...args);
    });
    let answered = false;
    const inFlight = postJson<IngestReport>(`${t.url}/ingest/conversations`, records).then((r) => {
      answered = true;
      return r;
    });
    await atService;
    expect(answered).toBe(false);
    const closing = t.close();
    release();
    const response = await inFlight;
    await closing;
    expect(response.status).toBe(200);
    expect(response.body.inserted).toBe(24);
  });
});
