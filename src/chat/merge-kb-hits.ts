import { type Citation } from './chat-events';

export type KbCollection = 'source_chunks' | 'topic_summaries';

/** One knowledge-base hit above the threshold, with its payload flattened. */
export interface KbHit {
  collection: KbCollection;
  id: string;
  text: string;
  /** The rerank score, plus the theme boost once `mergeKbHits` has applied it. */
  score: number;
  /** Cosine similarity to the question: the out-of-scope gate's evidence. */
  similarity?: number;
  topicId: string;
  title: string;
  themeId: string | null;
}

export interface MergeOptions {
  /** The employee's current-week theme; null when they have none. */
  currentThemeId: string | null;
  /** Added to hits of the current theme (the spec's 0.05): a nudge, not an override. */
  boost: number;
  /** Hits kept after deduplication (the spec's 6). */
  limit: number;
}

export interface MergedKb {
  merged: KbHit[];
  sourceChunks: KbHit[];
  topicSummaries: KbHit[];
  citations: Citation[];
}

/**
 * The spec's steps 3 to 5: boost the current week's theme, keep the best hit per topic,
 * sort by score, take the top `limit`, split by collection and cite each topic once.
 * Ties keep retrieval order (chunks before summaries), so the result is deterministic.
 */
export function mergeKbHits(hits: KbHit[], options: MergeOptions): MergedKb {
  const boosted = hits.map((hit) =>
    options.currentThemeId !== null && hit.themeId === options.currentThemeId
      ? { ...hit, score: hit.score + options.boost }
      : hit,
  );
  const bestPerTopic = new Map<string, KbHit>();
  for (const hit of boosted) {
    const kept = bestPerTopic.get(hit.topicId);
    if (!kept || hit.score > kept.score) {
      bestPerTopic.set(hit.topicId, hit);
    }
  }
  const order = new Map(boosted.map((hit, index) => [hit, index]));
  const merged = [...bestPerTopic.values()]
    .sort((a, b) => b.score - a.score || order.get(a)! - order.get(b)!)
    .slice(0, options.limit);
  return {
    merged,
    sourceChunks: merged.filter((hit) => hit.collection === 'source_chunks'),
    topicSummaries: merged.filter((hit) => hit.collection === 'topic_summaries'),
    citations: merged.map((hit) => ({ id: hit.topicId, title: hit.title })),
  };
}
