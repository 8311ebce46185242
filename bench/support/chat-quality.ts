import { contentHash, uuidFromHash } from '@app/common';
import { Database } from '@app/database';
import { createEmbeddingProvider } from '@app/embedding';
import { FusionReranker } from '@app/rerank';
import { PgVectorStore, type VectorRecord } from '@app/vector';

import { hybridKbHits } from '../../src/chat/kb-hybrid';
import { type KbHit, mergeKbHits } from '../../src/chat/merge-kb-hits';
import { dot, embedCached, normalize } from './embedding-cache';
import { sgdCustomerQuestions } from './sgd';
import { chunkSquadCorpus, loadSquadCorpus, loadSquadSample } from './squad';

/** The chat's per-collection limit and merged size (spec). */
const LIMITS = { source_chunks: 5, topic_summaries: 3 };
const MERGED_LIMIT = 6;
const BOOST = 0.05;
const POOL_K = 20;

export interface HitAtFive {
  /** How the current-week theme is chosen for each question. */
  theme: 'none' | 'gold_article' | 'unrelated_article';
  hit_at_5: number;
  /** Questions that passed the out-of-scope gate (the rest are refused). */
  answered: number;
}

type Item = { paragraphId: string; title: string; content: string };

/**
 * R42 retrieval quality on SQuAD (`../shared/data/squad`, 500-question sample): each
 * paragraph is a KB topic (`topic_id` = paragraph id) whose theme is its Wikipedia article;
 * its chunks go to `source_chunks` and its first sentence stands in for the topic summary.
 * A question hits when a gold paragraph is among the top 5 of the chat's merged list.
 *
 * Two pipelines on the same vectors: `hybrid` is the chat's own (`hybridKbHits` on a
 * pgvector store: dense + BM25 pool, fusion rerank, gate on the best kept cosine), then
 * `mergeKbHits`; `dense_only` is the earlier one (each collection's exact-cosine top k above
 * the threshold). `off_domain_pass` is the share of 500 SGD customer questions that pass the
 * gate: the out-of-scope leak. The theme variants show the boost with the employee's week on
 * the question's article, and on some other article.
 */
export async function squadHitAtFive(threshold: number, log: (message: string) => void) {
  const paragraphs = loadSquadCorpus();
  const chunks: Item[] = chunkSquadCorpus(paragraphs);
  const summaries: Item[] = paragraphs.map((p) => ({
    paragraphId: p._id,
    title: p.title,
    content: firstSentence(p.text),
  }));
  const questions = loadSquadSample();
  const offDomain = sgdCustomerQuestions(500);
  const provider = createEmbeddingProvider({ provider: 'local', workers: 2 });
  const info = await provider.init();
  const embed = async (name: string, texts: string[]) =>
    (await embedCached(provider, info.model, name, texts, log)).map(normalize);
  let vectors: Record<'chunks' | 'summaries' | 'questions' | 'offDomain', Float32Array[]>;
  try {
    vectors = {
      chunks: await embed(
        'squad-chunks',
        chunks.map((c) => c.content),
      ),
      summaries: await embed(
        'squad-summaries',
        summaries.map((s) => s.content),
      ),
      questions: await embed(
        'squad-questions500',
        questions.map((q) => q.text),
      ),
      offDomain: await embed('sgd-offdomain500', offDomain),
    };
  } finally {
    await provider.close();
  }
  const database = new Database({ dataDir: 'memory://' });
  const store = new PgVectorStore(database);
  await store.init(info.dimension);
  try {
    const records = (items: Item[], v: Float32Array[]) =>
      items.map((c, i) => ({
        id: uuidFromHash(contentHash('chat-bench', c.paragraphId, String(i), c.content)),
        content: c.content,
        embedding: Array.from(v[i]),
        payload: { topic_id: c.paragraphId, title: c.title, theme_id: c.title, chunk_index: i },
      }));
    await store.upsert('source_chunks', records(chunks, vectors.chunks));
    const summaryRows: Array<VectorRecord<'topic_summaries'>> = records(
      summaries,
      vectors.summaries,
    ).map((r) => ({
      ...r,
      payload: {
        topic_id: r.payload.topic_id,
        title: r.payload.title,
        theme_id: r.payload.theme_id,
      },
    }));
    await store.upsert('topic_summaries', summaryRows);
    log('chat quality: KB stored');
    const reranker = new FusionReranker();
    const hybrid = (text: string, v: Float32Array) =>
      hybridKbHits(
        store,
        reranker,
        { text, embedding: Array.from(v) },
        { poolK: POOL_K, limits: LIMITS, threshold },
      );
    const dense = (v: Float32Array): KbHit[] => [
      ...topK('source_chunks', chunks, vectors.chunks, v, threshold),
      ...topK('topic_summaries', summaries, vectors.summaries, v, threshold),
    ];
    const pipelines: Record<string, { candidates: KbHit[][]; offDomainPass: number }> = {};
    for (const [name, run] of [
      ['dense_only', (t: string, v: Float32Array) => Promise.resolve(dense(v))],
      ['hybrid', hybrid],
    ] as const) {
      const candidates: KbHit[][] = [];
      for (const [i, q] of questions.entries()) {
        candidates.push(await run(q.text, vectors.questions[i]));
      }
      let passed = 0;
      for (const [i, text] of offDomain.entries()) {
        passed += (await run(text, vectors.offDomain[i])).length > 0 ? 1 : 0;
      }
      pipelines[name] = { candidates, offDomainPass: passed / offDomain.length };
    }
    const titles = [...new Set(chunks.map((c) => c.title))].sort();
    const variant = (candidates: KbHit[][], theme: HitAtFive['theme']): HitAtFive => {
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
      const rate = (n: number) => Number((n / questions.length).toFixed(3));
      return { theme, hit_at_5: rate(hits), answered: rate(answered) };
    };
    return {
      threshold,
      questions: questions.length,
      chunks: chunks.length,
      pipelines: Object.fromEntries(
        Object.entries(pipelines).map(([name, p]) => [
          name,
          {
            off_domain_pass: Number(p.offDomainPass.toFixed(3)),
            results: (['none', 'gold_article', 'unrelated_article'] as const).map((t) =>
              variant(p.candidates, t),
            ),
          },
        ]),
      ),
    };
  } finally {
    await database.close();
  }
}

/** The earlier chat retrieval: one collection's exact-cosine top k above the threshold. */
function topK(
  collection: KbHit['collection'],
  items: Item[],
  vectors: Float32Array[],
  query: Float32Array,
  threshold: number,
): KbHit[] {
  return items
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
    .slice(0, LIMITS[collection]);
}

/** The paragraph's first sentence, at most 40 words: a stand-in for a topic summary. */
function firstSentence(text: string): string {
  const sentence = text.split(/(?<=[.!?])\s+/)[0] ?? text;
  return sentence.split(/\s+/).slice(0, 40).join(' ');
}
