import { type EmbeddingService } from '@app/embedding';
import { type HybridQuery, type VectorStore } from '@app/vector';

import { strictDouble } from '../../test/support/doubles';
import { HybridSearchService } from './hybrid-search.service';

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
    );
    const deadline = new AbortController();

    await sut.pool('standing desk motor', { contact_uid: 'ctc_1' }, 20, deadline.signal);

    expect(queries).toEqual([
      expect.objectContaining({ text: 'standing desk motor', signal: deadline.signal }),
    ]);
  });
});
