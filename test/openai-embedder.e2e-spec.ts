import { type IngestReport } from '../src/ingest/ingest.dto';
import { type SearchResponseDto } from '../src/retrieval/search.dto';
import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { bootTestApp, postJson, type TestApp } from './support/app';

/** 70 two-turn conversations: 70 windows, rebuilt in groups of 32, 32 and 6 conversations. */
const RECORDS = Array.from({ length: 70 }, (_, i) =>
  ['customer', 'agent'].map((sender, turn) => ({
    conversation_uid: `conv_${i}`,
    contact_uid: `ctc_${i % 7}`,
    channel: 'webchat',
    occurred_at: new Date(Date.UTC(2026, 1, 1, 0, i, turn)).toISOString(),
    sender,
    text: `${sender} message ${turn} of conversation ${i}`,
  })),
).flat();

describe('EMBEDDING_PROVIDER=openai (e2e, real SDK against a loopback OpenAI)', () => {
  let openai: FakeOpenAi;
  let t: TestApp;

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: 'sk-test' });
    t = await bootTestApp({
      EMBEDDING_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.baseURL,
    });
  });
  afterAll(async () => {
    await t.close();
    await openai.close();
  });

  it('a crash mid-ingest followed by a re-run loses nothing and duplicates nothing', async () => {
    // All messages are stored first; then the first group's 32 windows are embedded and
    // stored, and the second group's embedding fails past the SDK's three retries, which
    // aborts the request like a crash would.
    openai.failNext(
      { status: 200 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
    );

    const crashed = await postJson<{ error: string }>(`${t.url}/ingest/conversations`, RECORDS);
    expect(crashed.status).toBe(503);
    expect(crashed.body.error).toBe('embedding_failed');

    const rerun = await postJson<IngestReport>(`${t.url}/ingest/conversations`, RECORDS);
    expect(rerun.status).toBe(200);
    expect(rerun.body).toEqual({ received: 140, inserted: 38, skipped: 32, failed: [] });

    const third = await postJson<IngestReport>(`${t.url}/ingest/conversations`, RECORDS);
    expect(third.body).toEqual({ received: 140, inserted: 0, skipped: 70, failed: [] });
  });

  it('searches with OpenAI vectors end to end, filtered per contact', async () => {
    const search = await postJson<SearchResponseDto>(`${t.url}/search`, {
      query: 'message',
      contact_uid: 'ctc_3',
      top_k: 50,
    });
    expect(search.status).toBe(200);
    expect(search.body.hits).toHaveLength(10);
    expect(search.body.hits.every((h) => h.contact_uid === 'ctc_3')).toBe(true);
    const scores = search.body.hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });
});
