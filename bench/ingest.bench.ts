/**
 * Ingest throughput on the SGD dialogues: chunks/s, embedding ms per chunk, store size.
 * Embedding is the bottleneck, so the same slice is ingested with a single embedding thread
 * (the baseline) and with the worker pool, in the same run.
 *
 *   npm run bench:ingest            # full file; BENCH_CONVERSATIONS=300 for a shorter run
 */
import { availableParallelism } from 'node:os';

import { EmbeddingService } from '@app/embedding';
import { PgVectorStore, VECTOR_STORE } from '@app/vector';

import { IngestService } from '../src/ingest/ingest.service';
import { benchContext } from './support/app-context';
import { loadSgdConversations, sgdToMessages } from './support/sgd';
import { printJson } from './support/stats';

async function ingestRun(messages: unknown[], workers: number) {
  const ctx = await benchContext({ EMBEDDING_WORKERS: String(workers) });
  try {
    const ingest = ctx.get(IngestService);
    const embedding = ctx.get(EmbeddingService);
    let embedMs = 0;
    let embedded = 0;
    const original = embedding.embedDocuments.bind(embedding);
    embedding.embedDocuments = async (texts, signal) => {
      const t0 = performance.now();
      const out = await original(texts, signal);
      embedMs += performance.now() - t0;
      embedded += texts.length;
      return out;
    };
    const t0 = performance.now();
    const report = await ingest.ingestConversations(messages);
    const wallMs = performance.now() - t0;
    const store = ctx.get<PgVectorStore>(VECTOR_STORE);
    return {
      workers,
      messages: messages.length,
      chunks_inserted: report.inserted,
      failed: report.failed.length,
      wall_s: Number((wallMs / 1000).toFixed(2)),
      chunks_per_s: Number((report.inserted / (wallMs / 1000)).toFixed(1)),
      embed_ms_per_chunk: Number((embedMs / Math.max(1, embedded)).toFixed(2)),
      embed_share_of_wall: Number((embedMs / wallMs).toFixed(2)),
      store_rows: await store.count('conversations'),
      store_bytes: await store.storageBytes(),
    };
  } finally {
    await ctx.close();
  }
}

async function main() {
  const limit = process.env.BENCH_CONVERSATIONS
    ? Number(process.env.BENCH_CONVERSATIONS)
    : undefined;
  const sliceSize = Number(process.env.BENCH_BASELINE_CONVERSATIONS ?? 120);
  const all = loadSgdConversations(limit);
  const slice = sgdToMessages(all.slice(0, sliceSize));
  const poolWorkers = Math.min(4, availableParallelism());

  const baseline = await ingestRun(slice, 1);
  const pooled = await ingestRun(slice, poolWorkers);
  const full = await ingestRun(sgdToMessages(all), poolWorkers);
  printJson({
    bench: 'ingest',
    dataset: 'sgd/conversations.jsonl',
    comparison_on_slice: {
      conversations: sliceSize,
      single_thread: baseline,
      worker_pool: pooled,
      speedup: Number((pooled.chunks_per_s / baseline.chunks_per_s).toFixed(2)),
    },
    full: { conversations: all.length, ...full },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
