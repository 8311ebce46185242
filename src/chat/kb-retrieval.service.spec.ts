import { type CurriculumSource, type CurrentWeek } from '@app/curriculum';
import { type EmbeddingService } from '@app/embedding';
import { type DenseQuery, type VectorHit, type VectorStore } from '@app/vector';

import { type AppConfig } from '../config/app-config';
import { KbRetrievalService } from './kb-retrieval.service';

const config = { chat: { themeBoost: 0.05 } } as AppConfig;
const embedding = {
  info: { defaultThreshold: 0.42 },
  embedQuery: jest.fn(() => Promise.resolve([1, 0])),
} as unknown as EmbeddingService;

const hit = (
  id: string,
  topic: string,
  score: number,
  theme: string,
): VectorHit<'source_chunks'> => ({
  id,
  content: `text ${id}`,
  score,
  payload: { topic_id: topic, title: `Title ${topic}`, theme_id: theme, chunk_index: 0 },
});

/** A store double that answers per collection and records the queries it got. */
function store(search: (collection: string, query: DenseQuery) => Promise<VectorHit[]>) {
  const calls: Array<[string, DenseQuery]> = [];
  const double = {
    search: (collection: string, query: DenseQuery) => {
      calls.push([collection, query]);
      return search(collection, query);
    },
  } as unknown as VectorStore;
  return { double, calls };
}

const curriculum = (week: () => Promise<CurrentWeek>): CurriculumSource => ({
  currentWeek: week,
  isHealthy: () => Promise.resolve(true),
});

describe('KbRetrievalService', () => {
  const hits = (collection: string) =>
    Promise.resolve(
      collection === 'source_chunks'
        ? [hit('c1', 'other', 0.8, 'theme_b'), hit('c2', 'mine', 0.77, 'theme_a')]
        : [],
    );

  it('searches both collections with the spec limits above the embedder threshold, and boosts the week', async () => {
    const { double, calls } = store(hits);
    const sut = new KbRetrievalService(
      embedding,
      double,
      curriculum(() => Promise.resolve({ status: 'found', themeId: 'theme_a', themeName: 'A' })),
      config,
    );
    const result = await sut.retrieve('q', 'u1', new AbortController().signal);
    expect(calls.map(([c, q]) => [c, q.topK, q.scoreThreshold])).toEqual([
      ['source_chunks', 5, 0.42],
      ['topic_summaries', 3, 0.42],
    ]);
    expect(result.merged.map((h) => h.topicId)).toEqual(['mine', 'other']);
    expect(result.currentThemeId).toBe('theme_a');
  });

  it('answers without the boost when the curriculum source fails', async () => {
    const sut = new KbRetrievalService(
      embedding,
      store(hits).double,
      curriculum(() => Promise.reject(new Error('pocketbase down'))),
      config,
    );
    const result = await sut.retrieve('q', 'u1', new AbortController().signal);
    expect(result.currentThemeId).toBeNull();
    expect(result.merged.map((h) => h.topicId)).toEqual(['other', 'mine']);
  });

  it('rejects an unknown user with user_not_found (404)', async () => {
    const sut = new KbRetrievalService(
      embedding,
      store(hits).double,
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
      curriculum(() => Promise.resolve({ status: 'found', themeId: null, themeName: null })),
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
