import { type KbHit, mergeKbHits } from './merge-kb-hits';

const hit = (
  collection: KbHit['collection'],
  topicId: string,
  score: number,
  themeId: string | null = 'theme_a',
): KbHit => ({
  collection,
  id: `${collection}:${topicId}:${score}`,
  text: `text of ${topicId}`,
  score,
  topicId,
  title: `Title ${topicId}`,
  themeId,
});

describe('mergeKbHits', () => {
  const noBoost = { currentThemeId: null, boost: 0.05, limit: 6 };

  it('keeps the highest-scoring hit per topic, sorted by score', () => {
    const sut = mergeKbHits(
      [
        hit('source_chunks', 't1', 0.8),
        hit('source_chunks', 't1', 0.9),
        hit('topic_summaries', 't1', 0.85),
        hit('topic_summaries', 't2', 0.75),
      ],
      noBoost,
    );
    expect(sut.merged.map((h) => [h.topicId, h.score])).toEqual([
      ['t1', 0.9],
      ['t2', 0.75],
    ]);
    expect(sut.sourceChunks.map((h) => h.topicId)).toEqual(['t1']);
    expect(sut.topicSummaries.map((h) => h.topicId)).toEqual(['t2']);
  });

  it('boosts the current theme by the configured amount, enough to reorder near-ties only', () => {
    const hits = [
      hit('source_chunks', 'other', 0.8, 'theme_b'),
      hit('source_chunks', 'mine', 0.77, 'theme_a'),
      hit('source_chunks', 'far', 0.6, 'theme_a'),
      hit('source_chunks', 'top', 0.95, 'theme_b'),
    ];
    const sut = mergeKbHits(hits, { ...noBoost, currentThemeId: 'theme_a' });
    expect(sut.merged.map((h) => h.topicId)).toEqual(['top', 'mine', 'other', 'far']);
    expect(sut.merged[1].score).toBeCloseTo(0.82, 10);
    expect(mergeKbHits(hits, noBoost).merged.map((h) => h.topicId)).toEqual([
      'top',
      'other',
      'mine',
      'far',
    ]);
  });

  it('takes the top `limit` after deduplication and cites each kept topic once', () => {
    const hits = Array.from({ length: 9 }, (_, i) => hit('source_chunks', `t${i}`, 0.9 - i / 100));
    const sut = mergeKbHits([...hits, hit('topic_summaries', 't0', 0.5)], noBoost);
    expect(sut.merged).toHaveLength(6);
    expect(sut.citations).toEqual(
      ['t0', 't1', 't2', 't3', 't4', 't5'].map((id) => ({ id, title: `Title ${id}` })),
    );
  });

  it('returns nothing for no hits', () => {
    expect(mergeKbHits([], noBoost)).toEqual({
      merged: [],
      sourceChunks: [],
      topicSummaries: [],
      citations: [],
    });
  });
});
