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
