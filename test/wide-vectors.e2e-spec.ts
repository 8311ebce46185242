/**
 * Embedders over 2,000 dimensions (OpenAI's text-embedding-3-large, 3,072-d): pgvector's
 * HNSW stops at 2,000 on `vector`, so the store is built with `halfvec(N)` columns and
 * `halfvec_cosine_ops` indexes (issue 39). On the old code the first migration fails at
 * its first index, so no app boots at this size.
 */
import { contentHash, uuidFromHash } from '@app/common';
import { Database } from '@app/database';
import { PgVectorStore, type VectorRecord } from '@app/vector';

import { type ContextBundle } from '../src/context/context.dto';
import { fakeEmbedding, type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { engineEnv, TEST_ENGINE } from './support/postgres';

const WIDE = 3072;
const LARGE = { provider: 'openai', model: 'text-embedding-3-large' };

const row = (n: number, contact: string): VectorRecord<'conversations'> => ({
  id: uuidFromHash(contentHash(`wide ${n}`)),
  content: `window ${n} of ${contact}`,
  embedding: fakeEmbedding(`window ${n}`, WIDE),
  payload: {
    contact_uid: contact,
    location_uid: 'loc_1',
    conversation_uid: `conv_${n}`,
    channel: 'sms',
    occurred_at: new Date(Date.UTC(2026, 0, 1 + n)).toISOString(),
  },
});

describe(`a ${WIDE}-d store on ${TEST_ENGINE}`, () => {
  let database: Database;
  let release: () => Promise<void>;
  let sut: PgVectorStore;

  beforeAll(async () => {
    const engine = await engineEnv();
    ({ release } = engine);
    database = new Database({ dataDir: 'memory://', databaseUrl: engine.env.DATABASE_URL });
    await database.open(WIDE, LARGE);
    // ctc_big (6 windows) counts as large here (threshold 4): it gets its own index.
    sut = new PgVectorStore(database, 4);
    await sut.init(WIDE);
    await sut.upsert('conversations', [
      ...Array.from({ length: 6 }, (_, i) => row(i, 'ctc_big')),
      row(10, 'ctc_small'),
      row(11, 'ctc_small'),
    ]);
  });
  afterAll(async () => {
    await database.close();
    await release();
  });

  it('is built with halfvec columns and halfvec HNSW indexes', async () => {
    const columns = await database.query<{ t: string; type: string }>(
      `SELECT c.relname AS t, format_type(a.atttypid, a.atttypmod) AS type
       FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE a.attname = 'embedding' AND c.relkind = 'r' ORDER BY 1`,
    );
    expect(columns).toEqual(
      ['kb_source_chunks', 'kb_topic_summaries', 'podium_conversations'].map((t) => ({
        t,
        type: `halfvec(${WIDE})`,
      })),
    );
    const indexes = await database.query<{ def: string }>(
      `SELECT indexdef AS def FROM pg_indexes WHERE indexdef LIKE '%USING hnsw%' ORDER BY 1`,
    );
    expect(indexes).toHaveLength(3);
    expect(indexes.every((i) => i.def.includes('halfvec_cosine_ops'))).toBe(true);
  });

  it('finds a window by its vector, globally and per contact (exact and per-contact HNSW)', async () => {
    const query = { embedding: fakeEmbedding('window 3', WIDE), topK: 3 };
    const [global] = await sut.search('conversations', query);
    expect(global.content).toBe('window 3 of ctc_big');
    expect(global.score).toBeGreaterThan(0.999); // halfvec keeps ~3 significant digits
    const filtered = { ...query, filter: { contact_uid: 'ctc_big' } };
    const before = await sut.search('conversations', filtered);
    // A Postgres server builds ctc_big its own index (halfvec opclass); PGlite never does.
    await expect(sut.maintain()).resolves.toEqual({
      created: TEST_ENGINE === 'postgres' ? ['ctc_big'] : [],
      dropped: [],
    });
    const after = await sut.search('conversations', filtered);
    expect(after[0].content).toBe('window 3 of ctc_big');
    expect(after.map((h) => h.id)).toEqual(before.map((h) => h.id));
  });
});

describe(`ingest and /context with ${WIDE}-d OpenAI embeddings on ${TEST_ENGINE} (app)`, () => {
  let openai: FakeOpenAi;
  let t: TestApp;

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: 'sk-test', dimension: WIDE });
    t = await bootTestApp({
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_MODEL: LARGE.model,
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.baseURL,
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await openai?.close();
  });

  it('ingests and answers /context from the halfvec store', async () => {
    const msg = (conversation: string, day: number, text: string) => ({
      conversation_uid: conversation,
      contact_uid: 'ctc_wide',
      location_uid: 'loc_main',
      channel: 'sms',
      occurred_at: new Date(Date.UTC(2026, 0, day, 12)).toISOString(),
      sender: 'customer',
      text,
    });
    const ingest = await postJson<{ inserted: number }>(`${t.url}/ingest/conversations`, [
      msg('c_table', 1, 'The dining table leg arrived scratched, I want a replacement leg.'),
      msg('c_sofa', 2, 'Please deliver the blue sofa to the back porch on Friday.'),
    ]);
    expect(ingest.status).toBe(200);
    expect(ingest.body.inserted).toBe(2);
    expect(openai.requests.every((r) => r.body.model === LARGE.model)).toBe(true);

    const context = await postJson<ContextBundle>(`${t.url}/context`, {
      transcript: 'the dining table leg is scratched',
      contact_uid: 'ctc_wide',
      location_uid: 'loc_main',
    });
    expect(context.status).toBe(200);
    expect(context.body.historical_excerpts[0].content).toContain('dining table leg');
  });
});
