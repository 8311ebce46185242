import { createEmbeddingProvider } from '@app/embedding';

import { type KbHit, mergeKbHits } from '../../src/chat/merge-kb-hits';
import { dot, embedCached, normalize } from './embedding-cache';
import { chunkSquadCorpus, loadSquadCorpus, loadSquadSample } from './squad';

/** The chat's per-collection limit and merged size (spec). */
const SOURCE_CHUNK_LIMIT = 5;
const TOPIC_SUMMARY_LIMIT = 3;
const MERGED_LIMIT = 6;
const BOOST = 0.05;

export interface HitAtFive {
  /** How the current-week theme is chosen for each question. */
  theme: 'none' | 'gold_article' | 'unrelated_article';
  hit_at_5: number;
  /** Questions with at least one hit above the threshold (the rest go out of scope). */
  answered: number;
}

/**
 * R42 retrieval quality on SQuAD (`../shared/data/squad`, 500-question sample): each
 * paragraph is a KB topic (`topic_id` = paragraph id) whose theme is its Wikipedia article;
 * its chunks go to `source_chunks` and its first sentence stands in for the topic summary.
 * A question hits when a gold paragraph is among the top 5 of the chat's merged list
 * (exact cosine, per-collection limits 5 and 3, threshold, theme boost, dedup by topic: the
 * chat's own `mergeKbHits`).
 * The theme variants show what the boost does when the employee's week is the question's
 * article, and the cost when it is some other article.
 */
export async function squadHitAtFive(
  threshold: number,
  log: (message: string) => void,
): Promise<{ threshold: number; questions: number; chunks: number; results: HitAtFive[] }> {
  const paragraphs = loadSquadCorpus();
  const chunks = chunkSquadCorpus(paragraphs);
  const questions = loadSquadSample();
  const provider = createEmbeddingProvider({ provider: 'local', workers: 2 });
  const info = await provider.init();
  try {
    const chunkVectors = (
      await embedCached(
        provider,
        info.model,
        'squad-chunks',
        chunks.map((c) => c.content),
        log,
      )
    ).map(normalize);
    const questionVectors = (
      await embedCached(
        provider,
        info.model,
        'squad-questions500',
        questions.map((q) => q.text),
        log,
      )
    ).map(normalize);
    const summaries = paragraphs.map((p) => ({
      paragraphId: p._id,
      title: p.title,
      content: firstSentence(p.text),
    }));
    const summaryVectors = (
      await embedCached(
        provider,
        info.model,
        'squad-summaries',
        summaries.map((s) => s.content),
        log,
      )
    ).map(normalize);
    const titles = [...new Set(chunks.map((c) => c.title))].sort();
    // Exactly what the store returns: each collection's top k above the threshold.
    const topK = (
      collection: KbHit['collection'],
      items: Array<{ paragraphId: string; title: string; content: string }>,
      vectors: Float32Array[],
      query: Float32Array,
      k: number,
    ): KbHit[] =>
      items
        .map((c, i): KbHit => ({
          collection,
          id: `${c.paragraphId}#${i}`,
          text: c.content,
          score: dot(query, vectors[i]),
          topicId: c.paragraphId,
          title: c.title,
          themeId: c.title,
        }))
        .filter((hit) => hit.score >= threshold)
        .sort((a, b) => b.score - a.score)
        .slice(0, k);
    const candidates = questionVectors.map((query) => [
      ...topK('source_chunks', chunks, chunkVectors, query, SOURCE_CHUNK_LIMIT),
      ...topK('topic_summaries', summaries, summaryVectors, query, TOPIC_SUMMARY_LIMIT),
    ]);
    const variant = (theme: HitAtFive['theme']): HitAtFive => {
      let hits = 0;
      let answered = 0;
      questions.forEach((q, qi) => {
        const unrelated = titles[(titles.indexOf(q.title) + 1) % titles.length];
        const currentThemeId =
          theme === 'none' ? null : theme === 'gold_article' ? q.title : unrelated;
        const { merged } = mergeKbHits(candidates[qi], {
          currentThemeId,
          boost: BOOST,
          limit: MERGED_LIMIT,
        });
        answered += merged.length > 0 ? 1 : 0;
        hits += merged.slice(0, 5).some((hit) => q.gold.includes(hit.topicId)) ? 1 : 0;
      });
      return {
        theme,
        hit_at_5: Number((hits / questions.length).toFixed(3)),
        answered: Number((answered / questions.length).toFixed(3)),
      };
    };
    return {
      threshold,
      questions: questions.length,
      chunks: chunks.length,
      results: [variant('none'), variant('gold_article'), variant('unrelated_article')],
    };
  } finally {
    await provider.close();
  }
}

/** The paragraph's first sentence, at most 40 words: a stand-in for a topic summary. */
function firstSentence(text: string): string {
  const sentence = text.split(/(?<=[.!?])\s+/)[0] ?? text;
  return sentence.split(/\s+/).slice(0, 40).join(' ');
}
