import { type Reranker } from '@app/rerank';
import { type VectorHit, type VectorStore } from '@app/vector';

import { mergeLists } from '../retrieval/merge-lists';
import { type KbCollection, type KbHit } from './merge-kb-hits';

export interface KbHybridOptions {
  /** Candidates per list and per collection (the `/context` pool size). */
  poolK: number;
  /** The spec's per-collection limits (5 chunks, 3 summaries). */
  limits: Record<KbCollection, number>;
  /** The embedder's calibrated cosine threshold: the out-of-scope gate. */
  threshold: number;
  signal?: AbortSignal;
}

const toKbHit = (
  collection: KbCollection,
  hit: VectorHit<KbCollection>,
  score: number,
  similarity: number,
): KbHit => ({
  collection,
  id: hit.id,
  text: hit.content,
  score,
  similarity,
  topicId: hit.payload.topic_id,
  title: hit.payload.title,
  themeId: hit.payload.theme_id,
});

/**
 * Chat retrieval, the `/context` way: per KB collection, the dense and BM25 lists of one
 * hybrid round trip, their union, then the reranker; each collection keeps its best few by
 * rerank score. Scores are the reranker's, so the theme boost and the merge act on them.
 *
 * The threshold is the out-of-scope gate, and it applies to evidence that means "covered":
 * the best cosine among the passages kept. When none reaches it, nothing is returned and the
 * chat answers out of scope. Since the kept passages are a subset of what dense search
 * alone would see, an off-domain question passes no more often than with the old per-hit
 * cosine filter; but once a question is covered, a passage found by its rare words (a low
 * cosine, a high BM25) is no longer thrown away, while one with neither is (`isEvidence`). A reranker failure degrades to the pool's
 * RRF order, as `/context` degrades rather than failing.
 */
export async function hybridKbHits(
  store: VectorStore,
  reranker: Reranker,
  query: { text: string; embedding: number[] },
  options: KbHybridOptions,
): Promise<KbHit[]> {
  const collections: KbCollection[] = ['source_chunks', 'topic_summaries'];
  const kept = (
    await Promise.all(collections.map((c) => rankCollection(store, reranker, c, query, options)))
  ).flat();
  const covered = kept.some((hit) => (hit.similarity ?? 0) >= options.threshold);
  return covered ? kept : [];
}

/**
 * A passage worth citing: close in meaning, or sharing a query term (the BM25 list found it).
 * A small KB puts every passage in the dense list; one far in meaning with no shared word
 * is filler that the old per-hit threshold dropped too.
 */
const isEvidence = (c: { vectorScore: number; lexicalRank?: number }, threshold: number) =>
  c.vectorScore >= threshold || c.lexicalRank !== undefined;

async function rankCollection(
  store: VectorStore,
  reranker: Reranker,
  collection: KbCollection,
  query: { text: string; embedding: number[] },
  options: KbHybridOptions,
): Promise<KbHit[]> {
  const { dense, lexical } = await store.hybridSearch<KbCollection>(collection, {
    embedding: query.embedding,
    text: query.text,
    topK: options.poolK,
    signal: options.signal,
  });
  const pool = mergeLists(dense, lexical).slice(0, options.poolK);
  if (pool.length === 0) {
    return [];
  }
  const scores = await reranker.score(query.text, pool, options.signal).catch(() => undefined);
  const valid = scores?.length === pool.length && scores.every(Number.isFinite);
  // Degraded: RRF order, scored by rank so later steps still see "higher is better".
  const scored = pool.map((c, i) => ({
    c,
    s: valid && scores ? scores[i] : 1 - i / pool.length,
  }));
  return scored
    .sort((a, b) => b.s - a.s)
    .filter(({ c }) => isEvidence(c, options.threshold))
    .slice(0, options.limits[collection])
    .map(({ c, s }) => toKbHit(collection, c.hit, s, c.vectorScore));
}
