import { type EmbeddingService } from '@app/embedding';
import { type RerankCandidate, type Reranker } from '@app/rerank';

import { strictDouble } from '../../test/support/doubles';
import { type AppConfig } from '../config/app-config';
import { RelevanceService } from './relevance.service';

const relevanceConfig = (timeoutMs = 5000, maxInFlight = 1) =>
  ({ relevance: { timeoutMs, maxInFlight } }) as AppConfig;

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
  const sut = new RelevanceService(embedding, reranker, relevanceConfig());

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

describe('RelevanceService admission and deadline', () => {
  const reranker: Reranker = {
    name: 'fusion',
    score: (_query, candidates) => Promise.resolve(candidates.map(() => 0.5)),
  };

  /**
   * An embedder whose document embeddings wait until `finish()`; `obeyAbort` makes a
   * waiting call reject when its signal aborts, as the real one drops queued texts.
   */
  function heldEmbedder(obeyAbort: boolean) {
    const waiting: Array<() => void> = [];
    let started = 0;
    const embedding = strictDouble<EmbeddingService>({
      embedQuery: () => Promise.resolve([1, 0]),
      embedDocuments: (texts: string[], signal?: AbortSignal) => {
        started++;
        return new Promise<number[][]>((resolve, reject) => {
          waiting.push(() => resolve(texts.map(() => [1, 0])));
          if (obeyAbort) {
            signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
          }
        });
      },
    });
    return {
      embedding,
      started: () => started,
      finish: () => waiting.splice(0).forEach((resume) => resume()),
    };
  }

  it('answers 503 overloaded when every slot stays busy past the wait budget', async () => {
    const held = heldEmbedder(false);
    const sut = new RelevanceService(held.embedding, reranker, relevanceConfig(200, 1));
    const first = sut.score({ query: 'q', candidates: ['a', 'b'] });
    await expect(sut.score({ query: 'q', candidate: 'c' })).rejects.toMatchObject({
      code: 'overloaded',
      httpStatus: 503,
    });
    expect(held.started()).toBe(1); // the refused call started no work
    held.finish();
    await expect(first).resolves.toMatchObject({ scores: [0.5, 0.5] });
  });

  it('lets one caller hold only its share: its next call is refused, another caller waits in', async () => {
    const held = heldEmbedder(false);
    const sut = new RelevanceService(held.embedding, reranker, relevanceConfig(60_000, 1));
    const first = sut.score({ query: 'q', candidate: 'a' }, 'key:tenant-a');
    // Old code: this call waits in the shared gate ahead of tenant B's.
    await expect(sut.score({ query: 'q', candidate: 'b' }, 'key:tenant-a')).rejects.toMatchObject({
      code: 'overloaded',
      httpStatus: 503,
    });
    const other = sut.score({ query: 'q', candidate: 'c' }, 'key:tenant-b');
    await Promise.resolve();
    held.finish();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    held.finish();
    await expect(other).resolves.toMatchObject({ score: 0.5 });
    // Its call done, tenant A has its share back.
    const again = sut.score({ query: 'q', candidate: 'd' }, 'key:tenant-a');
    await new Promise((resolve) => setImmediate(resolve));
    held.finish();
    await expect(again).resolves.toMatchObject({ score: 0.5 });
  });

  it('admits a waiting call as soon as a slot frees within its wait budget', async () => {
    const held = heldEmbedder(false);
    const sut = new RelevanceService(held.embedding, reranker, relevanceConfig(60_000, 1));
    const first = sut.score({ query: 'q', candidate: 'a' });
    const second = sut.score({ query: 'q', candidate: 'b' });
    await Promise.resolve();
    held.finish();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    held.finish();
    await expect(second).resolves.toMatchObject({ score: 0.5 });
  });

  it('answers 503 relevance_timeout at the deadline and aborts the work, which frees its slot', async () => {
    const held = heldEmbedder(true);
    const sut = new RelevanceService(held.embedding, reranker, relevanceConfig(100, 1));
    await expect(sut.score({ query: 'q', candidate: 'a' })).rejects.toMatchObject({
      code: 'relevance_timeout',
      httpStatus: 503,
    });
    const next = sut.score({ query: 'q', candidate: 'b' });
    await new Promise((resolve) => setImmediate(resolve));
    held.finish();
    await expect(next).resolves.toMatchObject({ score: 0.5 });
  });

  it('keeps the slot of timed-out work that has not stopped yet', async () => {
    const held = heldEmbedder(false); // ignores the abort: still running after the answer
    const sut = new RelevanceService(held.embedding, reranker, relevanceConfig(100, 1));
    await expect(sut.score({ query: 'q', candidate: 'a' })).rejects.toMatchObject({
      code: 'relevance_timeout',
    });
    await expect(sut.score({ query: 'q', candidate: 'b' })).rejects.toMatchObject({
      code: 'overloaded',
    });
    held.finish();
  });
});
