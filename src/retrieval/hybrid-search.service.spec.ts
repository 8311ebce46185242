import { type Database, StoreModelFollower } from '@app/database';
import { type EmbeddingService } from '@app/embedding';
import { type HybridQuery, type VectorStore } from '@app/vector';

import { strictDouble } from '../../test/support/doubles';
import { HybridSearchService } from './hybrid-search.service';

const passThrough = strictDouble<StoreModelFollower>({ retryOnSwitch: (work) => work() });

describe('HybridSearchService', () => {
  it("hands the caller's signal to the store, so the deadline's abort reaches the database", async () => {
    const queries: HybridQuery[] = [];
    const sut = new HybridSearchService(
      strictDouble<EmbeddingService>({ embedQuery: () => Promise.resolve([0.1, 0.2]) }),
      strictDouble<VectorStore>({
        hybridSearch: (_collection, query) => {
          queries.push(query);
          return Promise.resolve({ dense: [], lexical: [] });
        },
      }),
      passThrough,
    );
    const deadline = new AbortController();

    await sut.pool('standing desk motor', { contact_uid: 'ctc_1' }, 20, deadline.signal);

    expect(queries).toEqual([
      expect.objectContaining({ text: 'standing desk motor', signal: deadline.signal }),
    ]);
  });

  describe('a time range (a question that names a date)', () => {
    const hit = (id: string, score: number) => ({
      id,
      content: id,
      score,
      similarity: score,
      payload: {
        contact_uid: 'ctc_1',
        location_uid: null,
        conversation_uid: 'conv',
        channel: 'sms',
        occurred_at: '2023-05-07T12:00:00.000Z',
      },
    });
    const range = { from: '2023-05-07T00:00:00.000Z', to: '2023-05-15T00:00:00.000Z' };
    const storeAnswering = (queries: HybridQuery[], dated: () => Promise<unknown>) =>
      strictDouble<VectorStore>({
        hybridSearch: (_collection, query) => {
          queries.push(query);
          if (query.filter?.occurred_at) {
            return dated() as never;
          }
          return Promise.resolve({ dense: [hit('w1', 0.9)], lexical: [hit('w2', 3)] }) as never;
        },
      });
    const service = (store: VectorStore) =>
      new HybridSearchService(
        strictDouble<EmbeddingService>({ embedQuery: () => Promise.resolve([0.1, 0.2]) }),
        store,
        passThrough,
      );

    it('undated: one statement, and no dated list', async () => {
      const queries: HybridQuery[] = [];
      const sut = service(storeAnswering(queries, () => Promise.reject(new Error('unused'))));

      const pool = await sut.pool('what did I order', { contact_uid: 'ctc_1' }, 20);

      expect(queries).toHaveLength(1);
      expect(queries[0].filter).toEqual({ contact_uid: 'ctc_1' });
      expect(pool.dated).toBeUndefined();
    });

    it('dated: a second statement on the same vector under the filter and the range', async () => {
      const queries: HybridQuery[] = [];
      const inRange = { dense: [hit('w3', 0.5)], lexical: [hit('w3', 2), hit('w4', 1)] };
      const sut = service(storeAnswering(queries, () => Promise.resolve(inRange)));

      const pool = await sut.pool(
        'on 7 May 2023',
        { contact_uid: 'ctc_1' },
        20,
        undefined,
        'context',
        range,
      );

      expect(queries).toHaveLength(2);
      expect(queries[1]).toMatchObject({
        embedding: queries[0].embedding,
        text: 'on 7 May 2023',
        topK: 20,
        filter: { contact_uid: 'ctc_1', occurred_at: range },
      });
      expect(pool.candidates.map((c) => c.id).sort()).toEqual(['w1', 'w2']);
      expect(pool.dated?.map((c) => [c.id, c.denseRank, c.lexicalRank])).toEqual([
        ['w3', 1, 1],
        ['w4', undefined, 2],
      ]);
    });

    it("the range statement's failure leaves the main pool", async () => {
      const queries: HybridQuery[] = [];
      const sut = service(storeAnswering(queries, () => Promise.reject(new Error('boom'))));

      const pool = await sut.pool('on 7 May 2023', {}, 20, undefined, 'context', range);

      expect(pool.candidates.map((c) => c.id).sort()).toEqual(['w1', 'w2']);
      expect(pool.dated).toBeUndefined();
    });
  });

  it('a store that switched models between the embed and the search is followed and asked again', async () => {
    // The reembed switched the store to m2 (3-d) after this replica embedded with m1 (2-d).
    let serving = { provider: 'openai' as const, model: 'm1', dimension: 2, defaultThreshold: 0.5 };
    const switched: unknown[] = [];
    const followed: unknown[] = [];
    const embedding = strictDouble<EmbeddingService>({
      ready: true,
      get info() {
        return serving;
      },
      embedQuery: () => Promise.resolve(new Array<number>(serving.dimension).fill(0.5)),
      switchModel: (target) => {
        switched.push(target);
        serving = { ...serving, ...target, provider: 'openai' };
        return Promise.resolve(serving);
      },
    });
    const stored = { provider: 'openai', model: 'm2', dimension: 3 };
    const database = strictDouble<Database>({
      isOpen: true,
      query: <T>() => Promise.resolve([stored] as T[]),
      followModel: (model) => void followed.push(model),
    });
    const searched: number[][] = [];
    const store = strictDouble<VectorStore>({
      hybridSearch: (_collection, query) => {
        searched.push(query.embedding);
        if (query.embedding.length !== 3) {
          const error = Object.assign(new Error('different vector dimensions 3 and 2'), {
            code: '22000',
          });
          return Promise.reject(error);
        }
        return Promise.resolve({ dense: [], lexical: [] });
      },
    });
    const sut = new HybridSearchService(
      embedding,
      store,
      new StoreModelFollower(database, embedding),
    );

    await expect(sut.pool('standing desk motor', {}, 20)).resolves.toMatchObject({
      candidates: [],
    });

    expect(searched.map((v) => v.length)).toEqual([2, 3]);
    expect(switched).toEqual([stored]);
    expect(followed).toEqual([stored]);
  });

  it('any other store failure is not retried', async () => {
    let calls = 0;
    const sut = new HybridSearchService(
      strictDouble<EmbeddingService>({ embedQuery: () => Promise.resolve([0.1, 0.2]) }),
      strictDouble<VectorStore>({
        hybridSearch: () => {
          calls++;
          return Promise.reject(Object.assign(new Error('division by zero'), { code: '22012' }));
        },
      }),
      new StoreModelFollower(strictDouble<Database>({}), strictDouble<EmbeddingService>({})),
    );

    await expect(sut.pool('q', {}, 20)).rejects.toThrow('division by zero');
    expect(calls).toBe(1);
  });
});
