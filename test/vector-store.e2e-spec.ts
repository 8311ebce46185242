import { createServer } from 'node:net';

import { ConfigurationError, DependencyError } from '@app/common';
import { Database } from '@app/database';
import {
  type HybridQuery,
  PgVectorStore,
  QdrantStore,
  type VectorRecord,
  type VectorStore,
} from '@app/vector';

import { vectorsInRow } from '../libs/database/src/migrations/1700000000013-vectors-in-row';
import { type FakeQdrant, startFakeQdrant } from './fakes/qdrant-server';
import { occurredRangeContract } from './support/occurred-range-contract';
import { openEngineDatabase, TEST_ENGINE } from './support/postgres';
import { qdrantFidelity } from './support/qdrant-fidelity';
import { qdrantStoreOn, rawClient, REAL_QDRANT, testCollections } from './support/qdrant-stores';
import {
  ALL_CONVERSATIONS,
  DIMENSION,
  id,
  LEX_QUERY,
  vec,
  vectorStoreContract,
} from './support/vector-store-contract';

/**
 * One behavioural suite, three backends: pgvector (on PGlite, and on a Postgres server in the
 * e2e-postgres project), Qdrant's contract server, and a real Qdrant when QDRANT_URL is set
 * (skipped otherwise). Then what only Qdrant has: start-up checks, deadlines, and the wire
 * format, every body validated against the client's schema.
 */

vectorStoreContract(`pgvector on ${TEST_ENGINE}`, async () => {
  const { database, close } = await openEngineDatabase();
  return { store: new PgVectorStore(database), close };
});
occurredRangeContract(`pgvector on ${TEST_ENGINE}`, async () => {
  const { database, close } = await openEngineDatabase();
  return { store: new PgVectorStore(database), close };
});

describe('Qdrant provider on the contract server', () => {
  let fake: FakeQdrant;
  beforeAll(async () => {
    fake = await startFakeQdrant({ apiKey: 'contract-key' });
  });
  afterAll(() => fake.close());

  vectorStoreContract('qdrant on the contract server', () =>
    Promise.resolve(qdrantStoreOn({ url: fake.url, apiKey: 'contract-key' }, 'contract')),
  );
  occurredRangeContract('qdrant on the contract server', () =>
    Promise.resolve(qdrantStoreOn({ url: fake.url, apiKey: 'contract-key' }, 'dated')),
  );

  it('hybrid search is one round trip: dense, BM25, and BM25 re-scored by cosine', async () => {
    const { store, collections } = qdrantStoreOn({ url: fake.url, apiKey: 'contract-key' }, 'rt');
    await store.init(DIMENSION);
    await store.upsert('conversations', ALL_CONVERSATIONS);
    const before = fake.requests.length;
    await store.hybridSearch('conversations', {
      embedding: vec(0),
      text: LEX_QUERY,
      topK: 4,
      filter: { contact_uid: 'ctc_lex' },
    });
    const sent = fake.requests.slice(before);
    expect(sent.map((r) => r.operation)).toEqual(['query_batch_points']);
    expect(sent[0].collection).toBe(collections.conversations);
    const { searches } = sent[0].body as { searches: Array<Record<string, unknown>> };
    expect(searches.map((s) => [s.using ?? 'dense', 'prefetch' in s])).toEqual([
      ['dense', false],
      ['bm25', false],
      ['dense', true],
    ]);
    expect(searches[0].filter).toEqual({
      must: [{ key: 'contact_uid', match: { value: 'ctc_lex' } }],
    });
  });

  it('sent only bodies valid under the client’s schema types, and only what the fake knows', () => {
    expect(fake.requests.length).toBeGreaterThan(30);
    expect(fake.violations).toEqual([]);
    expect(fake.unsupported).toEqual([]);
    expect(fake.requests.every((r) => r.apiKey === 'contract-key')).toBe(true);
  });
});

describe('Qdrant provider start-up', () => {
  let fake: FakeQdrant;
  beforeAll(async () => {
    fake = await startFakeQdrant();
  });
  afterEach(() => {
    fake.hang = false;
  });
  afterAll(() => fake.close());

  it('creates each collection with the dimension, Cosine, a BM25 idf sparse vector and indexes', async () => {
    const { store, collections } = qdrantStoreOn({ url: fake.url }, 'create');
    await store.init(DIMENSION);
    const info = fake.engine.info(fake.engine.collection(collections.conversations));
    expect(info.config.params.vectors).toEqual({ size: DIMENSION, distance: 'Cosine' });
    expect(info.config.params.sparse_vectors).toEqual({ bm25: { modifier: 'idf' } });
    expect(Object.keys(info.payload_schema).sort()).toEqual([
      'contact_uid',
      'conversation_uid',
      'location_uid',
      'occurred_at',
    ]);
    const kb = fake.engine.info(fake.engine.collection(collections.source_chunks));
    expect(Object.keys(kb.payload_schema).sort()).toEqual(['theme_id', 'topic_id']);
    const creates = fake.requests.filter((r) => r.operation === 'create_collection').length;
    await store.init(DIMENSION);
    expect(fake.requests.filter((r) => r.operation === 'create_collection').length).toBe(creates);
  });

  it('refuses to boot on a dimension mismatch, saying how to fix it', async () => {
    const { store, collections } = qdrantStoreOn({ url: fake.url }, 'dims');
    await store.init(DIMENSION);
    const other = new QdrantStore({ url: fake.url, timeoutMs: 2000, collections });
    const error = await other.init(16).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(
      /Vector dimension mismatch: Qdrant collection `cb_test_dims_\w+` holds 8-d vectors but the embedder produces 16-d\..*QDRANT_COLLECTION_\w+/,
    );
  });

  it('refuses a collection it did not create (no BM25 sparse vector)', async () => {
    const collections = testCollections('foreign');
    fake.engine.createCollection(collections.source_chunks, {
      vectors: { size: DIMENSION, distance: 'Cosine' },
    });
    const store = new QdrantStore({ url: fake.url, timeoutMs: 2000, collections });
    await expect(store.init(DIMENSION)).rejects.toThrow(
      /has no `bm25` sparse vector.*QDRANT_COLLECTION_SOURCE_CHUNKS/,
    );
  });

  it('an unreachable URL is a DependencyError naming the host and the cause, quickly', async () => {
    const port = await closedPort();
    const store = new QdrantStore({
      url: `http://127.0.0.1:${port}`,
      // A timeout far past jest's: waiting for it instead of failing at once hangs the test.
      timeoutMs: 3_600_000,
      collections: testCollections('down'),
    });
    const error = await store.init(DIMENSION).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DependencyError);
    expect((error as Error).message).toBe(
      `Qdrant at http://127.0.0.1:${port} is unreachable (ECONNREFUSED)`,
    );
    expect(await store.isHealthy()).toBe(false);
  });

  it('a hung server cannot hold start-up past the timeout', async () => {
    fake.hang = true;
    const store = new QdrantStore({
      url: fake.url,
      timeoutMs: 400,
      collections: testCollections('hang'),
    });
    // The server never answers: only the 400 ms timeout ends start-up (else jest's timeout).
    await expect(store.init(DIMENSION)).rejects.toThrow(
      /Qdrant at http:\/\/127\.0\.0\.1:\d+ did not (answer|finish start-up) within 400 ms/,
    );
    expect(await store.isHealthy()).toBe(false);
  });

  it('a wrong API key and a vanished collection surface as DependencyErrors with Qdrant’s reason', async () => {
    const keyed = await startFakeQdrant({ apiKey: 'right' });
    try {
      const wrong = new QdrantStore({
        url: keyed.url,
        apiKey: 'wrong',
        timeoutMs: 2000,
        collections: testCollections('key'),
      });
      await expect(wrong.init(DIMENSION)).rejects.toThrow(/answered HTTP 401/);
    } finally {
      await keyed.close();
    }
    const { store, collections } = qdrantStoreOn({ url: fake.url }, 'gone');
    await store.init(DIMENSION);
    fake.engine.collections.delete(collections.conversations);
    await expect(store.count('conversations')).rejects.toThrow(
      /answered HTTP 404: Not found: Collection `cb_test_gone_\w+` doesn't exist!/,
    );
  });

  it('sent only schema-valid bodies throughout', () => {
    expect(fake.requests.length).toBeGreaterThan(10);
    expect(fake.violations).toEqual([]);
    expect(fake.unsupported).toEqual([]);
  });
});

describe('the contract server itself', () => {
  let fake: FakeQdrant;
  beforeAll(async () => {
    fake = await startFakeQdrant();
  });
  afterAll(() => fake.close());

  qdrantFidelity('on the contract server', () => ({ url: fake.url }));

  it('rejects a body the schema types do not describe, as Qdrant would, and records it', async () => {
    const response = await fetch(`${fake.url}/collections/x/points/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: [1], filter: { muss: [] } }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { status: { error: string } };
    expect(body.status.error).toMatch(/^Format error in JSON body: /);
    expect(fake.violations).toHaveLength(1);
  });

  it('refuses a filter on an unindexed key (Qdrant Cloud strict mode)', async () => {
    const client = rawClient({ url: fake.url });
    await client.createCollection('plain', { vectors: { size: 2, distance: 'Cosine' } });
    await expect(
      client.query('plain', {
        query: [1, 0],
        filter: { must: [{ key: 'contact_uid', match: { value: 'a' } }] },
      }),
    ).rejects.toMatchObject({ status: 400 });
  });
});

/** Same data in both stores, a battery of queries, the same ids in the same order. */
describe('pgvector and Qdrant agree', () => {
  let fake: FakeQdrant;
  let database: Database;
  let closeDatabase: () => Promise<void>;
  let stores: VectorStore[];
  beforeAll(async () => {
    fake = await startFakeQdrant();
    ({ database, close: closeDatabase } = await openEngineDatabase());
    stores = [new PgVectorStore(database), qdrantStoreOn({ url: fake.url }, 'parity').store];
    for (const store of stores) {
      await store.init(DIMENSION);
      await store.upsert('conversations', ALL_CONVERSATIONS);
    }
  });
  afterAll(async () => {
    await closeDatabase();
    await fake.close();
  });

  // [label, query, lexical hits expected]; texts match 3/2/1 terms, so no lexical ties.
  it.each<[string, HybridQuery, number]>([
    [
      'per contact',
      { embedding: vec(0, 0.1), text: LEX_QUERY, topK: 8, filter: { contact_uid: 'ctc_target' } },
      0,
    ],
    [
      'by location',
      { embedding: vec(1, 0.4), text: LEX_QUERY, topK: 6, filter: { location_uids: ['loc_0'] } },
      3,
    ],
    ['unfiltered', { embedding: vec(4, 0.9), text: 'espresso grinder', topK: 5 }, 2],
    [
      'one contact, lexical',
      { embedding: vec(7), text: LEX_QUERY, topK: 4, filter: { contact_uid: 'ctc_lex' } },
      3,
    ],
  ])('%s', async (_label, query, lexicalHits) => {
    const [pg, qd] = await Promise.all(stores.map((s) => s.hybridSearch('conversations', query)));
    expect(pg.dense.length).toBeGreaterThan(0);
    expect(pg.lexical).toHaveLength(lexicalHits);
    expect(qd.dense.map((h) => h.id)).toEqual(pg.dense.map((h) => h.id));
    expect(qd.lexical.map((h) => h.id)).toEqual(pg.lexical.map((h) => h.id));
    qd.dense.forEach((h, i) => expect(h.score).toBeCloseTo(pg.dense[i].score, 5));
    qd.lexical.forEach((h, i) =>
      expect(h.similarity).toBeCloseTo(pg.lexical[i].similarity as number, 5),
    );
  });
});

describe(`pgvector on ${TEST_ENGINE} at the local embedder's 512 dimensions`, () => {
  it('keeps each vector in its row, not in TOAST, and still finds it', async () => {
    const { database, close } = await openEngineDatabase();
    try {
      const store = new PgVectorStore(database);
      await store.init(512);
      // A 2 KB vector and a window's text pass the 2 KB TOAST threshold together.
      const records: Array<VectorRecord<'conversations'>> = Array.from({ length: 20 }, (_, i) => ({
        id: id('wide', String(i)),
        content: `Customer: order ${i} arrived with a cracked lid, can you send a replacement? `,
        // Model-like values: pglz cannot compress them, as it cannot a real embedding.
        embedding: Array.from({ length: 512 }, (_, j) => Math.sin(i * 512 + j + 1)),
        payload: {
          contact_uid: 'ctc_wide',
          location_uid: 'loc_0',
          conversation_uid: `conv_wide_${i}`,
          channel: 'sms',
          occurred_at: '2026-01-05T10:00:00.000Z',
        },
      }));
      await store.upsert('conversations', records);
      expect(await toastChunks(database)).toBe(0);
      const [best] = await store.search('conversations', {
        embedding: records[3].embedding,
        topK: 1,
      });
      expect(best.id).toBe(records[3].id);

      // A store from before the step: its rows went to TOAST; the step brings them back in.
      await database.transaction(async (tx) => {
        await vectorsInRow.down?.(tx);
      });
      const old = records.map((r) => ({ ...r, id: id('old', r.id) }));
      await store.upsert('conversations', old);
      expect(await toastChunks(database)).toBeGreaterThan(0);
      await database.transaction((tx) => vectorsInRow.up(tx));
      expect(await toastChunks(database)).toBe(0);
      const [found] = await store.search('conversations', { embedding: old[5].embedding, topK: 1 });
      expect([old[5].id, records[5].id]).toContain(found.id);
    } finally {
      await close();
    }
  });
});

(REAL_QDRANT ? describe : describe.skip)('Qdrant provider on a real server (QDRANT_URL)', () => {
  const target = REAL_QDRANT as { url: string; apiKey?: string };
  vectorStoreContract('qdrant on a real server', () =>
    Promise.resolve(qdrantStoreOn(target, 'real')),
  );
  qdrantFidelity('on a real server', () => target);
});

/** Chunks in the TOAST side table of the conversations table. */
async function toastChunks(database: Database): Promise<number> {
  // The TOAST table's size, not its rows: the service's role (no superuser, as row-level
  // security needs) may not read pg_toast, and a rewrite leaves an unused TOAST table empty.
  const [{ bytes }] = await database.query<{ bytes: string }>(
    `SELECT pg_relation_size(reltoastrelid)::text AS bytes FROM pg_class
     WHERE relname = 'podium_conversations'`,
  );
  return Number(bytes);
}

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
