import { dropCollections, rawClient, testCollections } from './qdrant-stores';

/**
 * Qdrant semantics the contract server claims, asserted through the official client against
 * any target: the fake here, and a real Qdrant when QDRANT_URL is set, so the fake's
 * formulas are checked against the real thing and not only against themselves.
 *
 * Three points: p1 [1,0] terms {1,2} tag a; p2 [0.8,0.6] term {1} tag b; p3 [0,1] term {3} tag a;
 * `at` one day apart from 1 May 2023 at noon (p2's written with an offset).
 */
const P1 = '00000000-0000-4000-8000-000000000001';
const P2 = '00000000-0000-4000-8000-000000000002';
const P3 = '00000000-0000-4000-8000-000000000003';

/** Qdrant's idf modifier: ln((N − n + 0.5)/(n + 0.5) + 1). */
const idf = (n: number, total = 3) => Math.log((total - n + 0.5) / (n + 0.5) + 1);

export function qdrantFidelity(label: string, target: () => { url: string; apiKey?: string }) {
  describe(`Qdrant semantics the contract server relies on: ${label}`, () => {
    const name = testCollections('fidelity').conversations;
    const client = () => rawClient(target());
    const ids = (points: Array<{ id: string | number }>) => points.map((p) => p.id);

    beforeAll(async () => {
      await client().createCollection(name, {
        vectors: { size: 2, distance: 'Cosine' },
        sparse_vectors: { bm25: { modifier: 'idf' } },
      });
      await client().createPayloadIndex(name, {
        wait: true,
        field_name: 'tag',
        field_schema: 'keyword',
      });
      await client().createPayloadIndex(name, {
        wait: true,
        field_name: 'at',
        field_schema: 'datetime',
      });
      await client().upsert(name, {
        wait: true,
        points: [
          {
            id: P1,
            vector: { '': [2, 0], bm25: { indices: [1, 2], values: [1, 1] } },
            payload: { tag: 'a', at: '2023-05-01T12:00:00.000Z' },
          },
          {
            id: P2,
            vector: { '': [0.8, 0.6], bm25: { indices: [1], values: [1] } },
            payload: { tag: 'b', at: '2023-05-02T14:00:00+02:00' },
          },
          {
            id: P3,
            vector: { '': [0, 1], bm25: { indices: [3], values: [1] } },
            payload: { tag: 'a', at: '2023-05-03T12:00:00.000Z' },
          },
        ],
      });
    });
    afterAll(() => dropCollections(target(), [name]));

    it('scores cosine on normalised vectors and honours score_threshold', async () => {
      const { points } = await client().query(name, { query: [3, 0], score_threshold: 0.5 });
      expect(ids(points)).toEqual([P1, P2]);
      expect(points[0].score).toBeCloseTo(1, 5);
      expect(points[1].score).toBeCloseTo(0.8, 5);
    });

    it('scores sparse vectors as Σ query × document × idf, sharing terms only', async () => {
      const { points } = await client().query(name, {
        query: { indices: [1, 2], values: [1, 1] },
        using: 'bm25',
      });
      expect(ids(points)).toEqual([P1, P2]);
      expect(points[0].score).toBeCloseTo(idf(2) + idf(1), 3);
      expect(points[1].score).toBeCloseTo(idf(2), 3);
    });

    it('fuses prefetches by RRF: Σ 1/(k + 0-based rank) with k = 2', async () => {
      const { points } = await client().query(name, {
        prefetch: [
          { query: [1, 0], limit: 3 },
          { query: { indices: [3], values: [1] }, using: 'bm25', limit: 3 },
        ],
        query: { fusion: 'rrf' },
      });
      expect(ids(points)).toEqual([P3, P1, P2]);
      expect(points.map((p) => p.score)).toEqual([
        expect.closeTo(1 / 4 + 1 / 2, 4),
        expect.closeTo(1 / 2, 4),
        expect.closeTo(1 / 3, 4),
      ]);
    });

    it('re-scores prefetched candidates with the outer query', async () => {
      const { points } = await client().query(name, {
        prefetch: { query: { indices: [1], values: [1] }, using: 'bm25', limit: 5 },
        query: [0, 1],
        with_payload: false,
      });
      expect(ids(points)).toEqual([P2, P1]);
      expect(points[0].score).toBeCloseTo(0.6, 5);
    });

    it('filters with must, should and must_not on keyword payloads and ids', async () => {
      const query = (filter: object) =>
        client()
          .query(name, { query: [1, 0], filter, limit: 5 })
          .then((r) => ids(r.points));
      expect(await query({ must: [{ key: 'tag', match: { value: 'a' } }] })).toEqual([P1, P3]);
      expect(await query({ should: [{ key: 'tag', match: { any: ['b', 'z'] } }] })).toEqual([P2]);
      expect(await query({ must_not: [{ has_id: [P1] }] })).toEqual([P2, P3]);
    });

    it('filters a datetime range as instants, bounds half-open with lt', async () => {
      const query = (range: object) =>
        client()
          .query(name, { query: [1, 0], filter: { must: [{ key: 'at', range }] }, limit: 5 })
          .then((r) => ids(r.points));
      const may2 = { gte: '2023-05-02T00:00:00Z', lt: '2023-05-03T00:00:00Z' };
      expect(await query(may2)).toEqual([P2]);
      expect(await query({ gte: '2023-05-01T12:00:00Z', lt: '2023-05-03T12:00:00Z' })).toEqual([
        P1,
        P2,
      ]);
      expect(await query({ gt: '2023-05-01T12:00:00Z', lte: '2023-05-03T12:00:00Z' })).toEqual([
        P2,
        P3,
      ]);
    });
  });
}
