import { type HybridQuery, type QdrantStore, type VectorRecord } from '@app/vector';

import { idf, SCOPED_QUERY_TERMS } from '../libs/vector/src/qdrant/scoped-lexical';
import { encodeDocument, termIndex, terms } from '../libs/vector/src/qdrant/sparse-text';
import { type FakeQdrant, startFakeQdrant } from './fakes/qdrant-server';
import { qdrantStoreOn } from './support/qdrant-stores';
import { DIMENSION, id, vec } from './support/vector-store-contract';

/**
 * Issue 36's score side channel on the Qdrant store: a location-bound caller's BM25 scores
 * (which explain shows) and lexical order must not move when another tenant's documents use
 * the query's words. Qdrant's `modifier: idf` counts the whole collection, so the scoped
 * search scores with the scope's own statistics. Run against the contract server, whose idf
 * is Qdrant's (ln(1 + (N − n + 0.5)/(n + 0.5)) over the collection).
 */

const doc = (key: string, location: string, content: string, contact = `ctc_${key}`) =>
  ({
    id: id('bm25-scope', key),
    content,
    embedding: vec(key.length % DIMENSION, 0.1),
    payload: {
      contact_uid: contact,
      location_uid: location,
      conversation_uid: `conv_${key}`,
      channel: 'sms',
      occurred_at: '2026-01-05T10:00:00.000Z',
    },
  }) satisfies VectorRecord<'conversations'>;

const A = [
  doc('a1', 'loc_a', 'The zebra print sofa arrived with a torn cushion.'),
  doc('a2', 'loc_a', 'Order 4471 for the walnut desk ships on Friday.'),
  doc('a3', 'loc_a', 'Please refund the zebra lamp, order 4471 was damaged.'),
];
/** Tenant B says the words A's queries use, many times over. */
const B = Array.from({ length: 30 }, (_, i) =>
  doc(`b${i}`, 'loc_b', `Zebra rug ${i}: the zebra pattern order ${5000 + i} looks great.`),
);

describe('Qdrant BM25 statistics for a location-scoped search (contract server)', () => {
  let fake: FakeQdrant;
  let sut: QdrantStore;
  let close: () => Promise<void>;

  beforeAll(async () => {
    fake = await startFakeQdrant();
    ({ store: sut, close } = qdrantStoreOn({ url: fake.url }, 'bm25scope'));
    await sut.init(DIMENSION);
    await sut.upsert('conversations', A);
  });
  afterAll(async () => {
    await close();
    await fake.close();
  });

  const scoped: HybridQuery = {
    embedding: vec(2),
    text: 'zebra refund order 4471',
    topK: 5,
    filter: { location_uids: ['loc_a'] },
  };
  const scores = async (query: HybridQuery) =>
    (await sut.hybridSearch('conversations', query)).lexical.map((h) => [h.id, h.score]);
  const lexical = async (query: HybridQuery) =>
    (await sut.lexicalSearch('conversations', query)).map((h) => [h.id, h.score, h.similarity]);

  it("a scoped search scores with its scope's statistics: another tenant's words move nothing (old: every score moved)", async () => {
    const withContact: HybridQuery = {
      ...scoped,
      filter: { location_uids: ['loc_a'], contact_uid: 'ctc_a3' },
    };
    const before = [await scores(scoped), await lexical(scoped), await scores(withContact)];
    const unscoped = await scores({ ...scoped, filter: undefined });
    expect(before[0].map(([hitId]) => hitId)).toEqual([A[2].id, A[1].id, A[0].id]);

    await sut.upsert('conversations', B);
    expect([await scores(scoped), await lexical(scoped), await scores(withContact)]).toEqual(
      before,
    );
    // The service's own (unbound) search still ranks with the whole collection.
    expect(await scores({ ...scoped, filter: undefined })).not.toEqual(unscoped);
  });

  it('a score is Σ scope idf × the document’s term weight (N: the scope’s documents; df: its postings)', async () => {
    const [best] = (await sut.hybridSearch('conversations', scoped)).lexical;
    const weights = encodeDocument(A[2].content);
    const weight = (term: string) => weights.values[weights.indices.indexOf(termIndex(term))];
    // In loc_a: zebra in 2 of 3 documents, refund in 1, order in 2, 4471 in 2.
    const df: Record<string, number> = { zebra: 2, refund: 1, order: 2, '4471': 2 };
    const expected = terms(scoped.text).reduce((sum, t) => sum + idf(3, df[t]) * weight(t), 0);
    expect(best.id).toBe(A[2].id);
    expect(best.score).toBeCloseTo(expected, 10);
  });

  it('hostile queries: no terms, an empty scope, and a transcript of thousands of distinct words', async () => {
    expect(await scores({ ...scoped, text: 'the and of' })).toEqual([]);
    expect(await scores({ ...scoped, filter: { location_uids: ['loc_none'] } })).toEqual([]);
    const long = Array.from({ length: 2000 }, (_, i) => `w${i.toString(36)}x`).join(' ');
    const before = fake.requests.length;
    const hits = await sut.hybridSearch('conversations', { ...scoped, text: `zebra ${long}` });
    expect(hits.lexical.map((h) => h.id)).toEqual([A[0].id, A[2].id]);
    // Bounded: one batch of at most 2 × SCOPED_QUERY_TERMS term reads, a count, the candidates.
    const batches = fake.requests
      .slice(before)
      .filter((r) => r.operation === 'query_batch_points')
      .map((r) => (r.body as { searches: unknown[] }).searches.length);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toBeLessThanOrEqual(1 + 2 * SCOPED_QUERY_TERMS);
    expect(fake.violations).toEqual([]);
  });
});
