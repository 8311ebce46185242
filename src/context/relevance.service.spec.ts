import { type EmbeddingService } from '@app/embedding';
import { type RerankCandidate, type Reranker } from '@app/rerank';

import { strictDouble } from '../../test/support/doubles';
import { RelevanceService } from './relevance.service';

describe('RelevanceService', () => {
  const vectors: Record<string, number[]> = {
    q: [1, 0],
    same: [2, 0],
    orthogonal: [0, 3],
  };
  const embedding = strictDouble<EmbeddingService>({
    embedQuery: (text: string) => Promise.resolve(vectors[text]),
    embedDocuments: (texts: string[]) => Promise.resolve(texts.map((t) => vectors[t])),
  });
  let seen: RerankCandidate[];
  const reranker: Reranker = {
    name: 'fusion',
    score: (_query, candidates) => {
      seen = candidates;
      return Promise.resolve(candidates.map((c) => (c.denseScore ?? 0) / 3 + 0.1234567));
    },
  };
  const sut = new RelevanceService(embedding, reranker);

  it('feeds the reranker each candidate with its cosine to the query, in input order', async () => {
    const result = await sut.score({ query: 'q', candidates: ['orthogonal', 'same'] });
    expect(seen.map((c) => [c.content, c.denseScore])).toEqual([
      ['orthogonal', 0],
      ['same', 1],
    ]);
    expect(result).toEqual({ query: 'q', reranker: 'fusion', scores: [0.123457, 0.45679] });
  });

  it('answers a single candidate with `score` too', async () => {
    await expect(sut.score({ query: 'q', candidate: 'same' })).resolves.toMatchObject({
      score: 0.45679,
      scores: [0.45679],
    });
  });

  it.each([
    ['neither', {}],
    ['both', { candidate: 'same', candidates: ['same'] }],
  ])('refuses %s of candidate and candidates', async (_label, fields) => {
    await expect(sut.score({ query: 'q', ...fields })).rejects.toMatchObject({
      code: 'invalid_candidates',
    });
  });
});
