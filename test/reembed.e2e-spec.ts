import { Database, StoreModelFollower } from '@app/database';
import { createEmbeddingProvider, EmbeddingService } from '@app/embedding';

import { reembed } from '../src/reembed/reembed-runner';
import { fakeEmbedding, type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { TEST_ENGINE } from './support/postgres';
import { seededRandom } from './support/seeded';
import { waitUntil } from './support/wait';

const FROM = { provider: 'openai', model: 'text-embedding-3-small', dimension: 64 };
const TO = { provider: 'openai', model: 'text-embedding-3-large', dimension: 96 };
const CONTACTS = 12;

const turn = (contact: number, minute: number, text: string) => ({
  conversation_uid: `conv_${contact}`,
  contact_uid: `ctc_${contact}`,
  location_uid: 'loc_1',
  channel: 'sms',
  occurred_at: new Date(Date.UTC(2026, 0, 5, 10, minute)).toISOString(),
  sender: minute % 2 ? 'agent' : 'customer',
  text,
});

const TOPICS = ['espresso boiler leak', 'standing desk motor', 'invoice refund', 'delivery date'];

/**
 * `reembed` in the service's own process (PGlite's only way: one process holds the data dir;
 * on Postgres the same code path the CLI runs): the store moves from a 64-d to a 96-d model
 * while /context is called in a loop (issue 39).
 */
describe(`reembed on a live store on ${TEST_ENGINE}`, () => {
  let openai: FakeOpenAi;
  let t: TestApp;
  const { random } = seededRandom('reembed');

  const history = (contact: number, from: number, count: number) =>
    Array.from({ length: count }, (_, i) =>
      turn(
        contact,
        from + i,
        `${TOPICS[(contact + i) % TOPICS.length]} note ${from + i} ${contact}`,
      ),
    );
  const target = () =>
    createEmbeddingProvider({
      provider: 'openai',
      model: TO.model,
      dimension: TO.dimension,
      openaiApiKey: 'sk-test',
      openaiBaseUrl: openai.baseURL,
    });
  const db = () => t.app.get(Database);

  beforeEach(async () => {
    openai = await startFakeOpenAi({ apiKey: 'sk-test', dimension: FROM.dimension });
    t = await bootTestApp({
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_MODEL: FROM.model,
      EMBEDDING_DIMENSION: String(FROM.dimension),
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.baseURL,
    });
    for (let c = 0; c < CONTACTS; c++) {
      const ingest = await postJson(`${t.url}/ingest/conversations`, history(c, 0, 8));
      expect(ingest.status).toBe(200);
    }
  });
  afterEach(async () => {
    await t.close();
    await openai.close();
  });

  it('/context answers throughout, writes during the backfill are caught up, every window ends on the new model', async () => {
    const embedder = target();
    await embedder.init();
    const statuses: number[] = [];
    let running = true;
    const caller = (async () => {
      while (running) {
        const contact = Math.floor(random() * CONTACTS);
        const r = await postJson(`${t.url}/context`, {
          transcript: `${TOPICS[contact % TOPICS.length]} again`,
          contact_uid: `ctc_${contact}`,
        });
        statuses.push(r.status);
      }
    })();
    let wrote = false;
    const report = await reembed({
      database: db(),
      target: TO,
      batch: 8,
      embed: async (texts) => {
        if (!wrote) {
          // The service writes while the backfill runs: new windows, and rebuilt old ones.
          wrote = true;
          const late = await postJson(`${t.url}/ingest/conversations`, history(1, 8, 4));
          expect(late.status).toBe(200);
        }
        return embedder.embedBatch(texts);
      },
    });
    // A few calls after the switch, on the new model.
    const atSwitch = statuses.length;
    await waitUntil('calls after the switch', () => statuses.length >= atSwitch + 5);
    running = false;
    await caller;
    await embedder.close();

    expect(report).toMatchObject({ from: FROM, to: TO, resumed: false });
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    const rows = await db().query<{ content: string; v: string; dims: number }>(
      `SELECT content, embedding::text AS v, vector_dims(embedding) AS dims FROM podium_conversations`,
    );
    expect(rows.length).toBeGreaterThan(CONTACTS);
    // Every window holds the target model's vector of its own text.
    for (const row of rows) {
      const want = fakeEmbedding(row.content, TO.dimension);
      const got = JSON.parse(row.v) as number[];
      expect(got).toHaveLength(TO.dimension);
      expect(Math.max(...got.map((x, i) => Math.abs(x - want[i])))).toBeLessThan(1e-5);
    }
    await expect(
      db().query(`SELECT provider, model, dimension FROM embedding_model`),
    ).resolves.toEqual([TO]);
    await expect(db().query(`SELECT * FROM embedding_reembed`)).resolves.toEqual([]);
    await expect(
      db().query(
        `SELECT attname FROM pg_attribute WHERE attrelid = 'podium_conversations'::regclass
         AND attname LIKE 'embedding%' AND NOT attisdropped`,
      ),
    ).resolves.toEqual([{ attname: 'embedding' }]);
    // The replica follows the record (at most a poll interval late) and serves the new model.
    await waitUntil(
      'the replica serves the new model',
      () => t.app.get(EmbeddingService).info.model === TO.model,
    );
    const after = await postJson<{ historical_excerpts: unknown[] }>(`${t.url}/context`, {
      transcript: 'standing desk motor',
      contact_uid: 'ctc_1',
    });
    expect(after.status).toBe(200);
    expect(after.body.historical_excerpts.length).toBeGreaterThan(0);
    // New writes carry the new model's vectors.
    await postJson(`${t.url}/ingest/conversations`, history(2, 40, 2));
    const [dims] = await db().query<{ d: number[] }>(
      `SELECT array_agg(DISTINCT vector_dims(embedding)) AS d FROM podium_conversations`,
    );
    expect(dims?.d).toEqual([TO.dimension]);
  });

  it('a run cut short resumes where the database says, and embeds only what was left', async () => {
    const embedder = target();
    await embedder.init();
    let batches = 0;
    const crash = reembed({
      database: db(),
      target: TO,
      batch: 4,
      embed: (texts) => {
        if (++batches > 3) {
          return Promise.reject(new Error('the process died here'));
        }
        return embedder.embedBatch(texts);
      },
    });
    await expect(crash).rejects.toThrow('the process died here');
    const [left] = await db().query<{ done: number; total: number }>(
      `SELECT count(embedding_next)::int AS done, count(*)::int AS total FROM podium_conversations`,
    );
    expect(left?.done).toBe(12);

    // Another model while this one is unfinished: refused, its vectors are not ours.
    await expect(
      reembed({
        database: db(),
        target: { ...TO, model: 'other' },
        batch: 8,
        embed: () => Promise.resolve([]),
      }),
    ).rejects.toMatchObject({ code: 'reembed_conflict' });

    const texts: string[] = [];
    const report = await reembed({
      database: db(),
      target: TO,
      batch: 8,
      embed: (batch) => {
        texts.push(...batch);
        return embedder.embedBatch(batch);
      },
    });
    await embedder.close();
    expect(report.resumed).toBe(true);
    expect(texts.length).toBe((left?.total ?? 0) - 12 + (await kbRows()));
    await expect(db().query(`SELECT model, dimension FROM embedding_model`)).resolves.toEqual([
      { model: TO.model, dimension: TO.dimension },
    ]);
  });

  it('a replica that has not polled the record yet adopts the new model at its first search or write', async () => {
    // No polling: only a search or write meeting the new column can tell this replica.
    t.app.get(StoreModelFollower).onApplicationShutdown();
    const embedder = target();
    await embedder.init();
    await reembed({ database: db(), target: TO, batch: 8, embed: (x) => embedder.embedBatch(x) });
    await embedder.close();
    expect(t.app.get(EmbeddingService).info.model).toBe(FROM.model);

    const context = await postJson<{ historical_excerpts: unknown[] }>(`${t.url}/context`, {
      transcript: 'standing desk motor',
      contact_uid: 'ctc_1',
    });
    expect(context.status).toBe(200);
    expect(context.body.historical_excerpts.length).toBeGreaterThan(0);
    expect(t.app.get(EmbeddingService).info.model).toBe(TO.model);
  });

  it('a write that meets the new column first is embedded again with the new model', async () => {
    t.app.get(StoreModelFollower).onApplicationShutdown();
    const embedder = target();
    await embedder.init();
    await reembed({ database: db(), target: TO, batch: 8, embed: (x) => embedder.embedBatch(x) });
    await embedder.close();

    const late = await postJson(`${t.url}/ingest/conversations`, history(3, 50, 2));
    expect(late.status).toBe(200);
    expect(t.app.get(EmbeddingService).info.model).toBe(TO.model);
    const [dims] = await db().query<{ d: number[] }>(
      `SELECT array_agg(DISTINCT vector_dims(embedding)) AS d FROM podium_conversations`,
    );
    expect(dims?.d).toEqual([TO.dimension]);
  });

  it('a knowledge-base write that meets the new column first is embedded again too', async () => {
    t.app.get(StoreModelFollower).onApplicationShutdown();
    const embedder = target();
    await embedder.init();
    await reembed({ database: db(), target: TO, batch: 8, embed: (x) => embedder.embedBatch(x) });
    await embedder.close();

    const kb = await postJson<{ failed: unknown[] }>(`${t.url}/ingest/kb`, [
      {
        topic_id: 'topic_desks',
        title: 'Standing desks',
        summary: 'How the standing desk motor is serviced.',
        text: 'The standing desk motor is replaced under warranty within two years.',
      },
    ]);
    expect(kb).toMatchObject({ status: 200, body: { failed: [] } });
    const [dims] = await db().query<{ d: number[] }>(
      `SELECT array_agg(DISTINCT vector_dims(embedding)) AS d FROM kb_source_chunks`,
    );
    expect(dims?.d).toEqual([TO.dimension]);
  });

  it('a same-size model change redoes what a stale replica wrote around the switch', async () => {
    // Nothing refuses an old-model vector of the new column's size: this replica never polls.
    t.app.get(StoreModelFollower).onApplicationShutdown();
    const SAME = { provider: 'openai', model: 'text-embedding-ada-002', dimension: FROM.dimension };
    const negated = (text: string, d: number) => fakeEmbedding(text, d).map((x) => -x);
    const other = await startFakeOpenAi({ apiKey: 'sk-test', embed: negated });
    const embedder = createEmbeddingProvider({
      provider: 'openai',
      model: SAME.model,
      dimension: SAME.dimension,
      openaiApiKey: 'sk-test',
      openaiBaseUrl: other.baseURL,
    });
    await embedder.init();
    const running = reembed({
      database: db(),
      target: SAME,
      batch: 8,
      embed: (x) => embedder.embedBatch(x),
    });
    await waitUntil('the switch', async () => {
      const [row] = await db().query<{ model: string }>(`SELECT model FROM embedding_model`);
      return row?.model === SAME.model;
    });
    const stale = await postJson(`${t.url}/ingest/conversations`, history(4, 60, 2));
    expect(stale.status).toBe(200);
    const report = await running;
    await embedder.close();
    await other.close();

    expect(report.swept).toBeGreaterThan(0);
    const rows = await db().query<{ content: string; v: string }>(
      `SELECT content, embedding::text AS v FROM podium_conversations`,
    );
    for (const row of rows) {
      const want = negated(row.content, SAME.dimension);
      const got = JSON.parse(row.v) as number[];
      expect(Math.max(...got.map((x, i) => Math.abs(x - want[i])))).toBeLessThan(1e-5);
    }
  });

  it('refuses the model the store is already on, and a dimension no index takes', async () => {
    const noEmbed = () => Promise.reject(new Error('must not embed'));
    await expect(
      reembed({ database: db(), target: FROM, batch: 8, embed: noEmbed }),
    ).rejects.toThrow('already on text-embedding-3-small (64-d)');
    await expect(
      reembed({ database: db(), target: { ...TO, dimension: 4001 }, batch: 8, embed: noEmbed }),
    ).rejects.toThrow("pgvector's HNSW indexes 1 to 4000");
    await expect(db().query(`SELECT * FROM embedding_reembed`)).resolves.toEqual([]);
  });

  async function kbRows(): Promise<number> {
    const [row] = await db().query<{ n: number }>(
      `SELECT (SELECT count(*) FROM kb_source_chunks) + (SELECT count(*) FROM kb_topic_summaries) AS n`,
    );
    return Number(row?.n ?? 0);
  }
});
