import { contentHash, uuidFromHash } from '@app/common';
import { Database } from '@app/database';

import { type VectorRecord } from '../interfaces/vector-store.interface';
import { PgVectorStore } from './pgvector.store';

/** Unit vectors in 8-d pointing mostly along `axis`, so cosine order is known in advance. */
const vec = (axis: number, tilt = 0): number[] => {
  const v = Array.from({ length: 8 }, (_, i) => (i === axis ? 1 : i === (axis + 1) % 8 ? tilt : 0));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

const conversation = (
  n: number,
  contact: string,
  axis: number,
  tilt: number,
  content: string,
): VectorRecord<'conversations'> => ({
  id: uuidFromHash(contentHash(String(n))),
  content,
  embedding: vec(axis, tilt),
  payload: {
    contact_uid: contact,
    location_uid: `loc_${n % 2}`,
    conversation_uid: `conv_${n}`,
    channel: 'sms',
    occurred_at: new Date(Date.UTC(2026, 0, n + 1)).toISOString(),
  },
});

describe('PgVectorStore on real PGlite + pgvector', () => {
  const database = new Database({ dataDir: 'memory://' });
  const sut = new PgVectorStore(database);

  beforeAll(async () => {
    await sut.init(8);
    // 300 rows for one busy contact in other directions, and 25 for ctc_target near axis 0.
    const noise = Array.from({ length: 300 }, (_, i) =>
      conversation(1000 + i, 'ctc_busy', 1 + (i % 6), i / 300, `noise row ${i}`),
    );
    const target = Array.from({ length: 25 }, (_, i) =>
      conversation(i, 'ctc_target', 0, i / 25, `target row ${i} about refunds`),
    );
    await sut.upsert('conversations', [...noise, ...target]);
  });
  afterAll(() => database.close());

  it('per-contact search is exact: topK rows, in cosine order, only that contact', async () => {
    const hits = await sut.search('conversations', {
      embedding: vec(0),
      topK: 20,
      filter: { contact_uid: 'ctc_target' },
    });
    expect(hits).toHaveLength(20);
    expect(hits.every((h) => h.payload.contact_uid === 'ctc_target')).toBe(true);
    expect(hits.map((h) => h.content).slice(0, 3)).toEqual([
      'target row 0 about refunds',
      'target row 1 about refunds',
      'target row 2 about refunds',
    ]);
    const scores = hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(hits[0].score).toBeCloseTo(1, 5);
  });

  it('filters by location and applies a score threshold inside the query', async () => {
    const hits = await sut.search('conversations', {
      embedding: vec(0),
      topK: 50,
      filter: { contact_uid: 'ctc_target', location_uids: ['loc_0'] },
      scoreThreshold: 0.9,
    });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.payload.location_uid === 'loc_0' && h.score >= 0.9)).toBe(true);
  });

  it('unfiltered search uses the whole table', async () => {
    const hits = await sut.search('conversations', { embedding: vec(3), topK: 5 });
    expect(hits).toHaveLength(5);
    expect(hits[0].payload.contact_uid).toBe('ctc_busy');
  });

  it('upserts are idempotent by id', async () => {
    const again = await sut.upsert('conversations', [
      conversation(0, 'ctc_target', 0, 0, 'target row 0 about refunds'),
    ]);
    expect(again).toEqual({ inserted: 0, skipped: 1 });
    expect(await sut.count('conversations')).toBe(325);
  });

  it('lexical search matches stemmed terms with OR semantics and respects the filter', async () => {
    const hits = await sut.lexicalSearch('conversations', {
      text: 'Can I get a refund, please?',
      topK: 5,
      filter: { contact_uid: 'ctc_target' },
    });
    expect(hits).toHaveLength(5);
    expect(hits.every((h) => h.content.includes('refunds'))).toBe(true);
    const none = await sut.lexicalSearch('conversations', { text: 'the and of', topK: 5 });
    expect(none).toEqual([]);
  });

  it('hybridSearch returns exactly the two lists of separate dense and lexical searches', async () => {
    const query = {
      embedding: vec(0, 0.3),
      text: 'refund for row 3',
      topK: 7,
      filter: { contact_uid: 'ctc_target' },
    };
    const both = await sut.hybridSearch('conversations', query);
    const dense = await sut.search('conversations', query);
    const lexical = await sut.lexicalSearch('conversations', query);
    expect(both.dense.map((h) => h.id)).toEqual(dense.map((h) => h.id));
    expect(both.lexical.map((h) => h.id)).toEqual(lexical.map((h) => h.id));
    expect(both.lexical[0].similarity).toBeCloseTo(lexical[0].similarity as number, 6);
    expect(both.dense[0].similarity).toBeUndefined();
    const unfiltered = await sut.hybridSearch('conversations', { ...query, filter: undefined });
    expect(unfiltered.dense).toHaveLength(7);
  });

  it('replaceTopic swaps a topic’s chunks atomically and reports idempotent re-runs', async () => {
    const chunk = (topic: string, i: number, text: string): VectorRecord<'source_chunks'> => ({
      id: uuidFromHash(contentHash(topic, String(i), text)),
      content: text,
      embedding: vec(i % 8),
      payload: { topic_id: topic, title: 'T', theme_id: null, chunk_index: i },
    });
    await sut.replaceTopic('source_chunks', 't1', [
      chunk('t1', 0, 'old a'),
      chunk('t1', 1, 'old b'),
    ]);
    await sut.replaceTopic('source_chunks', 't2', [chunk('t2', 0, 'other topic')]);
    const result = await sut.replaceTopic('source_chunks', 't1', [
      chunk('t1', 0, 'old a'),
      chunk('t1', 1, 'new b'),
    ]);
    expect(result).toEqual({ inserted: 1, skipped: 1 });
    const all = await sut.search('source_chunks', { embedding: vec(0), topK: 10 });
    expect(all.map((h) => h.content).sort()).toEqual(['new b', 'old a', 'other topic']);
  });

  it('reports existing ids and health', async () => {
    const known = conversation(0, 'ctc_target', 0, 0, '').id;
    const missing = uuidFromHash(contentHash('missing'));
    expect(await sut.existingIds('conversations', [known, missing])).toEqual(new Set([known]));
    expect(await sut.isHealthy()).toBe(true);
  });

  it('re-keys a merged contact’s history and deletes a removed contact’s history', async () => {
    const mine = (contact: string) =>
      sut.search('conversations', {
        embedding: vec(0),
        topK: 100,
        filter: { contact_uid: contact },
      });
    await sut.upsert('conversations', [
      conversation(5000, 'ctc_dupe', 0, 0.1, 'dupe row a'),
      conversation(5001, 'ctc_dupe', 0, 0.2, 'dupe row b'),
    ]);
    expect(await sut.reassignContact('ctc_dupe', 'ctc_survivor')).toBe(2);
    expect(await mine('ctc_dupe')).toHaveLength(0);
    expect((await mine('ctc_survivor')).map((h) => h.content).sort()).toEqual([
      'dupe row a',
      'dupe row b',
    ]);
    expect(await sut.deleteContact('ctc_survivor')).toBe(2);
    expect(await mine('ctc_survivor')).toHaveLength(0);
    expect(await mine('ctc_target')).toHaveLength(25);
  });
});
