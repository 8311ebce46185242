import { type ContextBundle } from '../src/context/context.dto';
import { type IngestReport } from '../src/ingest/ingest.dto';
import { type SearchResponseDto } from '../src/retrieval/search.dto';
import { type FakeQdrant, startFakeQdrant } from './fakes/qdrant-server';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { waitFor } from './support/wait';

/**
 * The whole app with VECTOR_PROVIDER=qdrant against the Qdrant contract server: demo seed,
 * ingest, /search and /context work as on pgvector, with every request body the app sends
 * valid under the client's schema types. Then a Qdrant that does not answer: the app still
 * starts within the timeout, readiness says why, and it recovers once Qdrant answers.
 */

const message = (conversation: string, contact: string, minute: number, text: string) => ({
  conversation_uid: conversation,
  contact_uid: contact,
  location_uid: 'loc_1',
  channel: 'sms',
  occurred_at: new Date(Date.UTC(2026, 0, 5, 10, minute)).toISOString(),
  sender: 'customer',
  text,
});

const HISTORY = [
  message('q1', 'ctc_q', 0, 'My espresso machine leaks water from the bottom every morning.'),
  message('q1', 'ctc_q', 1, 'The leak comes from the boiler gasket I think.'),
  message('q2', 'ctc_q', 10, 'Can I change the delivery address for my grinder order?'),
  message('q3', 'ctc_other', 0, 'The espresso machine I bought is leaking water too.'),
];

const ready = async (url: string) => {
  const response = await fetch(`${url}/health/ready`);
  return {
    status: response.status,
    body: (await response.json()) as {
      details: Record<string, { status: string; message?: string }>;
    },
  };
};

describe('VECTOR_PROVIDER=qdrant (e2e, real app on the Qdrant contract server)', () => {
  let fake: FakeQdrant;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeQdrant({ apiKey: 'app-key' });
    t = await bootTestApp({
      VECTOR_PROVIDER: 'qdrant',
      QDRANT_URL: fake.url,
      QDRANT_API_KEY: 'app-key',
      SEED_DEMO_DATA: 'true',
    });
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await fake.close();
  });

  it('is ready, with the demo data seeded into the three Qdrant collections', async () => {
    const { status, body } = await ready(t.url);
    expect(status).toBe(200);
    expect(body.details.database).toEqual({ status: 'up' });
    const sizes = ['podium_conversations', 'source_chunks', 'topic_summaries'].map(
      (name) => fake.engine.collection(name).points.size,
    );
    expect(sizes.every((n) => n > 0)).toBe(true);
  });

  it('finds demo history by meaning, per contact', async () => {
    const search = await postJson<SearchResponseDto>(`${t.url}/search`, {
      query: 'when will my dining table ship',
      contact_uid: 'ctc_demo_alice',
      top_k: 3,
    });
    expect(search.status).toBe(200);
    expect(search.body.hits.every((h) => h.contact_uid === 'ctc_demo_alice')).toBe(true);
    expect(search.body.hits[0]).toMatchObject({ conversation_uid: 'conv_demo_001' });
    expect(search.body.hits[0].content).toContain('March 20');
  });

  it('ingests idempotently and searches the new history', async () => {
    const first = await postJson<IngestReport>(`${t.url}/ingest/conversations`, HISTORY);
    expect(first.body).toEqual({ received: 4, inserted: 3, skipped: 0, failed: [] });
    const again = await postJson<IngestReport>(`${t.url}/ingest/conversations`, HISTORY);
    expect(again.body).toEqual({ received: 4, inserted: 0, skipped: 3, failed: [] });
    const search = await postJson<SearchResponseDto>(`${t.url}/search`, {
      query: 'coffee machine is dripping water',
      contact_uid: 'ctc_q',
      top_k: 5,
    });
    expect(search.body.hits.map((h) => h.conversation_uid)).toEqual(['q1', 'q2']);
    expect(search.body.hits[0].content).toContain('boiler gasket');
  });

  it('builds a /context bundle from hybrid retrieval and the live contact', async () => {
    const res = await postJson<ContextBundle>(`${t.url}/context`, {
      transcript: 'one of the dining table legs arrived scratched, can you replace it',
      contact_uid: 'ctc_demo_alice',
    });
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ had_vector_hits: true, had_live_lookup: true });
    expect(res.body.contact).toMatchObject({ phone: '+1 555 0199' });
    expect(res.body.historical_excerpts[0].content).toContain('replacement leg');
  });

  it('sent Qdrant only schema-valid bodies, all with the API key', () => {
    expect(fake.violations).toEqual([]);
    expect(fake.unsupported).toEqual([]);
    const operations = new Set(fake.requests.map((r) => r.operation));
    expect(operations).toEqual(
      new Set([
        'get_collection',
        'create_collection',
        'create_field_index',
        'count_points',
        'get_points',
        // Conversation windows and KB topics are both written as ordered batches.
        'batch_update',
        'query_points',
        'query_batch_points',
      ]),
    );
    expect(fake.requests.every((r) => r.apiKey === 'app-key')).toBe(true);
  });
});

describe('VECTOR_PROVIDER=qdrant with a Qdrant that does not answer', () => {
  let fake: FakeQdrant;
  let t: TestApp;

  beforeAll(async () => {
    fake = await startFakeQdrant();
    fake.hang = true;
    t = await bootTestApp({
      VECTOR_PROVIDER: 'qdrant',
      QDRANT_URL: fake.url,
      QDRANT_TIMEOUT_MS: '800',
    });
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await fake.close();
  });

  it('starts anyway; readiness is down and says why; requests fail with 503', async () => {
    expect((await fetch(`${t.url}/health/live`)).status).toBe(200);
    const { status, body } = await ready(t.url);
    expect(status).toBe(503);
    expect(body.details.database.status).toBe('down');
    expect(body.details.database.message).toMatch(
      /^Qdrant at http:\/\/127\.0\.0\.1:\d+ did not (answer|finish start-up) within 800 ms$/,
    );
    const search = await postJson<{ error: string; message: string }>(`${t.url}/search`, {
      query: 'anything',
    });
    expect(search.status).toBe(503);
    expect(search.body).toMatchObject({
      error: 'vector_store_unavailable',
      message: expect.stringMatching(/did not answer within 800 ms$/),
    });
  });

  it('becomes ready on its own once Qdrant answers', async () => {
    fake.hang = false;
    const state = await waitFor(
      'readiness',
      async () => {
        const probe = await ready(t.url);
        return probe.status === 200 ? probe : undefined;
      },
      20_000,
    );
    expect(state.body.details.database).toEqual({ status: 'up' });
    expect(fake.engine.collections.has('podium_conversations')).toBe(true);
    expect(fake.violations).toEqual([]);
  });
});
