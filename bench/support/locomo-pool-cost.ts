import { EmbeddingService } from '@app/embedding';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { type INestApplicationContext } from '@nestjs/common';

import { ingestLocomo } from './locomo-live';
import { summarize } from './stats';

/**
 * What a deeper first stage costs: the hybrid search statement (dense + BM25 lists of `k`
 * each, one statement) over the LoCoMo contacts at each depth, timed around the store call,
 * the depths interleaved per question (rotated, so none always runs first) over `rounds`
 * passes after one warm-up pass. Query vectors are embedded once, outside the timing.
 */
export async function poolCost(
  app: INestApplicationContext,
  depths: readonly number[],
  rounds: number,
  log: (m: string) => void,
) {
  const set = await ingestLocomo(app, log);
  const embedding = app.get(EmbeddingService);
  const store = app.get<VectorStore>(VECTOR_STORE);
  const vectors: number[][] = [];
  for (const q of set.questions) {
    vectors.push(await embedding.embedQuery(q.question));
  }
  log(`locomo-pool-cost: ${vectors.length} questions embedded`);
  const samples = new Map(depths.map((k) => [k, [] as number[]]));
  for (let round = 0; round <= rounds; round++) {
    for (const [qi, q] of set.questions.entries()) {
      for (let j = 0; j < depths.length; j++) {
        const k = depths[(qi + round + j) % depths.length];
        const t = performance.now();
        await store.hybridSearch('conversations', {
          embedding: vectors[qi],
          text: q.question,
          topK: k,
          filter: { contact_uid: q.contact_uid },
        });
        // Round 0 warms the plans and caches.
        if (round > 0) {
          samples.get(k)!.push(performance.now() - t);
        }
      }
    }
    log(`locomo-pool-cost: round ${round}/${rounds}`);
  }
  const base = summarize(samples.get(depths[0])!);
  return Object.fromEntries(
    depths.map((k) => {
      const s = summarize(samples.get(k)!);
      const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
      return [
        `k${k}`,
        { ...s, p50_vs_first: ratio(s.p50, base.p50), p99_vs_first: ratio(s.p99, base.p99) },
      ];
    }),
  );
}
