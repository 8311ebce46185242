import { type CurrentWeek, type CurriculumSource, NoneCurriculumSource } from '@app/curriculum';
import { type EmbeddingService } from '@app/embedding';
import { type RerankCandidate, type Reranker } from '@app/rerank';
import {
  type CollectionName,
  type HybridQuery,
  type HybridResult,
  type VectorHit,
  type VectorStore,
} from '@app/vector';

import { strictDouble } from '../../test/support/doubles';
import { type AppConfig } from '../config/app-config';
import { KbRetrievalService } from './kb-retrieval.service';

const config = { chat: { themeBoost: 0.05 }, context: { poolK: 20 } } as AppConfig;
const embedding = strictDouble<EmbeddingService>({
  info: { provider: 'local', model: 'test', dimension: 2, defaultThreshold: 0.42 },
  embedQuery: jest.fn(() => Promise.resolve([1, 0])),
});

const hit = (
  id: string,
  topic: string,
  score: number,
  theme: string,
  similarity?: number,
): VectorHit<'source_chunks'> => ({
  id,
  content: `text ${id}`,
  score,
  similarity,
  payload: { topic_id: topic, title: `Title ${topic}`, theme_id: theme, chunk_index: 0 },
});

type Lists = HybridResult<'source_chunks'>;

/** A store double that answers hybrid searches per collection and records the queries. */
function store(search: (collection: string, query: HybridQuery) => Promise<Lists>) {
  const calls: Array<[string, HybridQuery]> = [];
  const double = strictDouble<VectorStore>({
    hybridSearch: <C extends CollectionName>(collection: C, query: HybridQuery) => {
      calls.push([collection, query]);
      // The table answers with chunk-shaped hits for every collection the service asks.
      return search(collection, query) as Promise<HybridResult<C>>;
    },
  });
  return { double, calls };
}

/** Scores each candidate from a table by id (the "model"), or fails. */
const reranker = (scores: Record<string, number> | 'fails'): Reranker => ({
  name: 'fusion',
  score: (_query: string, candidates: RerankCandidate[]) =>
    scores === 'fails'
      ? Promise.reject(new Error('rerank down'))
      : Promise.resolve(candidates.map((c) => scores[c.id] ?? 0)),
});

const curriculum = (week: () => Promise<CurrentWeek>): CurriculumSource => ({
  currentWeek: week,
  isHealthy: () => Promise.resolve(true),
});

const week = (themeId: string | null) =>
  curriculum(() => Promise.resolve({ status: 'found', themeId, themeName: themeId }));

describe('KbRetrievalService', () => {
  // c1 and c2 come from the dense list; c3 from BM25 only, far in meaning (0.1) but the
  // reranker's favourite; summaries answer nothing.
  const hits = (collection: string): Promise<Lists> =>
    Promise.resolve(
      collection === 'source_chunks'
        ? {
            dense: [hit('c1', 'other', 0.8, 'theme_b'), hit('c2', 'mine', 0.77, 'theme_a')],
            lexical: [
              hit('c3', 'rare', 7.5, 'theme_c', 0.1),
              hit('c2', 'mine', 3.1, 'theme_a', 0.77),
            ],
          }
        : { dense: [], lexical: [] },
    );
  const scores = { c1: 0.6, c2: 0.58, c3: 0.7 };

  it('hybrid-searches both collections with the pool size, reranks, and boosts the week', async () => {
    const { double, calls } = store(hits);
    const sut = new KbRetrievalService(
      embedding,
      double,
      reranker(scores),
      week('theme_a'),
      config,
    );
    const result = await sut.retrieve('q', 'u1', new AbortController().signal);
    expect(calls.map(([c, q]) => [c, q.topK, q.text])).toEqual([
      ['source_chunks', 20, 'q'],
      ['topic_summaries', 20, 'q'],
    ]);
    // The lexical-only passage stays: the question is covered (c1, c2 pass the threshold).
    expect(result.merged.map((h) => [h.topicId, h.score])).toEqual([
      ['rare', 0.7],
      ['mine', 0.63],
      ['other', 0.6],
    ]);
    expect(result.currentThemeId).toBe('theme_a');
  });

  it('keeps the spec limit per collection, by rerank score', async () => {
    const many = Array.from({ length: 8 }, (_, i) => hit(`c${i}`, `t${i}`, 0.9 - i / 100, 'x'));
    const sut = new KbRetrievalService(
      embedding,
      store((c) =>
        Promise.resolve(
          c === 'source_chunks' ? { dense: many, lexical: [] } : { dense: [], lexical: [] },
        ),
      ).double,
      reranker(Object.fromEntries(many.map((h, i) => [h.id, i / 10]))),
      week(null),
      config,
    );
    const result = await sut.retrieve('q', 'u1', new AbortController().signal);
    expect(result.merged.map((h) => h.id)).toEqual(['c7', 'c6', 'c5', 'c4', 'c3']);
  });

  it('answers out of scope when no kept passage reaches the threshold in meaning', async () => {
    const sut = new KbRetrievalService(
      embedding,
      store((c) =>
        Promise.resolve(
          c === 'source_chunks'
            ? { dense: [hit('c1', 'a', 0.41, 'x')], lexical: [hit('c3', 'b', 9, 'x', 0.2)] }
            : { dense: [], lexical: [] },
        ),
      ).double,
      reranker({ c1: 0.2, c3: 0.9 }),
      week(null),
      config,
    );
    const result = await sut.retrieve('q', 'u1', new AbortController().signal);
    expect(result.merged).toEqual([]);
    expect(result.threshold).toBe(0.42);
  });

  it('drops dense filler: far in meaning and no shared word', async () => {
    const sut = new KbRetrievalService(
      embedding,
      store((c) =>
        Promise.resolve(
          c === 'source_chunks'
            ? { dense: [hit('c1', 'a', 0.8, 'x'), hit('c2', 'b', 0.2, 'x')], lexical: [] }
            : { dense: [], lexical: [] },
        ),
      ).double,
      reranker({ c1: 0.5, c2: 0.9 }),
      week(null),
      config,
    );
    const result = await sut.retrieve('q', 'u1', new AbortController().signal);
    expect(result.merged.map((h) => h.id)).toEqual(['c1']);
  });

  it('falls back to the pool order when the reranker fails', async () => {
    const sut = new KbRetrievalService(
      embedding,
      store(hits).double,
      reranker('fails'),
      week(null),
      config,
    );
    const result = await sut.retrieve('q', 'u1', new AbortController().signal);
    // RRF: c2 is in both lists, then c1 (dense rank 1), then c3 (lexical rank 1).
    expect(result.merged.map((h) => h.id)).toEqual(['c2', 'c1', 'c3']);
  });

  it('answers without the boost when the curriculum source fails', async () => {
    const sut = new KbRetrievalService(
      embedding,
      store(hits).double,
      reranker(scores),
      curriculum(() => Promise.reject(new Error('pocketbase down'))),
      config,
    );
    const result = await sut.retrieve('q', 'u1', new AbortController().signal);
    expect(result.currentThemeId).toBeNull();
    expect(result.merged.map((h) => h.topicId)).toEqual(['rare', 'other', 'mine']);
  });

  it('with no curriculum (CURRICULUM_PROVIDER=none), answers any user, unboosted', async () => {
    const sut = new KbRetrievalService(
      embedding,
      store(hits).double,
      reranker(scores),
      new NoneCurriculumSource(),
      config,
    );
    for (const userId of ['u1', 'nobody']) {
      const result = await sut.retrieve('q', userId, new AbortController().signal);
      expect(result.currentThemeId).toBeNull();
      expect(result.merged.map((h) => [h.topicId, h.score])).toEqual([
        ['rare', 0.7],
        ['other', 0.6],
        ['mine', 0.58],
      ]);
    }
  });

  it('rejects an unknown user with user_not_found (404)', async () => {
    const sut = new KbRetrievalService(
      embedding,
      store(hits).double,
      reranker(scores),
      curriculum(() => Promise.resolve({ status: 'user_not_found' })),
      config,
    );
    await expect(sut.retrieve('q', 'nobody', new AbortController().signal)).rejects.toMatchObject({
      code: 'user_not_found',
      httpStatus: 404,
    });
  });

  it('turns a store failure into retrieval_failed (503) without leaking its message', async () => {
    const sut = new KbRetrievalService(
      embedding,
      store(() => Promise.reject(new Error('relation kb_source_chunks does not exist'))).double,
      reranker(scores),
      week(null),
      config,
    );
    const failure = sut.retrieve('q', 'u1', new AbortController().signal);
    await expect(failure).rejects.toMatchObject({ code: 'retrieval_failed', httpStatus: 503 });
    await expect(failure).rejects.not.toHaveProperty(
      'message',
      expect.stringContaining('relation'),
    );
  });
});
