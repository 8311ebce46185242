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
  const q = { embedding: vec(0), text: 'refunds', topK: 3, filter: { contact_uid: 'ctc_target' } };

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
    expect(await sut.deleteContact('ctc_survivor')).toEqual({ removed: 2, complete: true });
    expect(await mine('ctc_survivor')).toHaveLength(0);
    expect(await mine('ctc_target')).toHaveLength(25);
  });

  // The caller's deadline reaches the statement, so the database can drop or cancel it.
  it.each([
    ['search', () => sut.search('conversations', { ...q, signal: AbortSignal.abort() })],
    [
      'hybridSearch',
      () => sut.hybridSearch('conversations', { ...q, signal: AbortSignal.abort() }),
    ],
  ])(
    '%s hands its signal to the database, which refuses a call already given up',
    async (_n, run) => {
      await expect(run()).rejects.toMatchObject({ name: 'AbortError' });
    },
  );

  // Built on a Postgres server only (test/large-contact-indexes.e2e-spec.ts): on PGlite a
  // build would hold the one session for its whole length.
  it('a large history gets no index of its own on PGlite, and its search stays exact', async () => {
    const large = new PgVectorStore(database, 200);
    const query = { embedding: vec(3, 0.4), topK: 20, filter: { contact_uid: 'ctc_busy' } };
    expect(await large.maintain()).toEqual({ created: [], dropped: [] });
    const hits = await large.search('conversations', query);
    expect(hits).toHaveLength(20);
    expect(hits.every((h) => h.payload.contact_uid === 'ctc_busy')).toBe(true);
    expect(hits.map((h) => h.score)).toEqual(
      (await sut.search('conversations', query)).map((h) => h.score),
    );
  });

  it('a hidden history is unreadable at once and deleted in batches that a signal stops', async () => {
    // 2,500 old windows (three delete batches) and one written after the forget, dated
    // 2135: what is hidden is what was stored before the forget, whatever its dates.
    const old = Array.from({ length: 2500 }, (_, i) =>
      conversation(20_000 + i, 'ctc_forgotten', 4, i / 2500, `forgotten refund row ${i}`),
    );
    const later = conversation(40_000, 'ctc_forgotten', 4, 0, 'later refund row');
    await sut.upsert('conversations', old);
    // The database's clock, exact (PGlite's ticks in milliseconds: the next row waits past it).
    const clock = async () =>
      (
        await database.query<{ now: string }>(
          `SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS now`,
        )
      )[0].now;
    const forgetAt = await clock();
    while ((await clock()) <= forgetAt) {
      // Each read takes a moment: the loop ends within the millisecond.
    }
    await sut.upsert('conversations', [later]);
    const query = { embedding: vec(4), topK: 30, text: 'refund row' };
    const own = { ...query, filter: { contact_uid: 'ctc_forgotten' } };
    const everyone = { ...query, embedding: vec(4), topK: 5000 };
    const contents = (hits: Array<{ content: string }>) => hits.map((h) => h.content);
    const theirs = <H extends { payload: { contact_uid: string } }>(hits: H[]) =>
      hits.filter((h) => h.payload.contact_uid === 'ctc_forgotten');
    expect((await sut.search('conversations', own)).length).toBe(30);

    await sut.hideContact('ctc_forgotten', forgetAt);
    // The contact's own searches see only what came after the forget, every leg.
    expect(contents(await sut.search('conversations', own))).toEqual(['later refund row']);
    expect(contents(await sut.lexicalSearch('conversations', own))).toEqual(['later refund row']);
    const hybrid = await sut.hybridSearch('conversations', own);
    expect(contents(hybrid.dense)).toEqual(['later refund row']);
    expect(contents(hybrid.lexical)).toEqual(['later refund row']);
    // Searches across contacts skip a contact being purged, and nobody else's rows.
    const across = await sut.hybridSearch('conversations', everyone);
    expect(theirs(across.dense)).toEqual([]);
    expect(theirs(across.lexical)).toEqual([]);
    expect(across.lexical.length).toBeGreaterThan(0);

    const stop = new AbortController();
    stop.abort();
    expect(
      await sut.deleteContact('ctc_forgotten', undefined, {
        before: forgetAt,
        signal: stop.signal,
      }),
    ).toEqual({ removed: 0, complete: false });
    const done = await sut.deleteContact('ctc_forgotten', undefined, { before: forgetAt });
    expect(done).toEqual({ removed: 2500, complete: true });
    // Done: nothing is hidden any more, and the window after the forget was kept.
    expect(contents(await sut.search('conversations', own))).toEqual(['later refund row']);
    const after = await sut.hybridSearch('conversations', everyone);
    expect(contents(theirs(after.dense))).toEqual(['later refund row']);
    await sut.deleteContact('ctc_forgotten');
  });

  it('keeps each contact’s BM25 statistics through inserts, merges and batched deletes', async () => {
    const stats = async (contact: string) => {
      const [row] = await database.query<{ docs: string | null; terms: string | null }>(
        `SELECT (SELECT docs FROM lexical_contact_stats WHERE contact_uid = $1) AS docs,
          (SELECT string_agg(term || ':' || df, ' ' ORDER BY term)
           FROM lexical_contact_term_stats WHERE contact_uid = $1) AS terms`,
        [contact],
      );
      return { docs: row.docs === null ? 0 : Number(row.docs), terms: row.terms };
    };
    await sut.upsert('conversations', [
      conversation(6000, 'ctc_a', 0, 0.1, 'refund the sofa'),
      conversation(6001, 'ctc_a', 0, 0.2, 'refund the table'),
      conversation(6002, 'ctc_b', 0, 0.3, 'sofa delivery'),
    ]);
    expect(await stats('ctc_a')).toEqual({ docs: 2, terms: 'refund:2 sofa:1 table:1' });
    await sut.reassignContact('ctc_a', 'ctc_b');
    expect(await stats('ctc_a')).toEqual({ docs: 0, terms: null });
    expect(await stats('ctc_b')).toEqual({ docs: 3, terms: 'deliveri:1 refund:2 sofa:2 table:1' });
    expect(await sut.deleteContact('ctc_b')).toEqual({ removed: 3, complete: true });
    expect(await stats('ctc_b')).toEqual({ docs: 0, terms: null });
    const [left] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM podium_conversations_terms WHERE contact_uid IN ('ctc_a', 'ctc_b')`,
    );
    expect(left.n).toBe(0);
  });

  it('deletes a history in transactions of 200 rows on PGlite, whose one session every search waits behind', async () => {
    const rows = Array.from({ length: 450 }, (_, i) =>
      conversation(20_000 + i, 'ctc_batched', 2, i / 450, `batched row ${i}`),
    );
    await sut.upsert('conversations', rows);
    const transactions = jest.spyOn(database, 'transaction');
    try {
      expect(await sut.deleteContact('ctc_batched')).toEqual({ removed: 450, complete: true });
      expect(transactions).toHaveBeenCalledTimes(3); // 200 + 200 + 50
    } finally {
      transactions.mockRestore();
    }
  });
});
