/**
 * Ingest throughput on the SGD dialogues: windows/s, embedding ms per window, store size.
 * Embedding is the bottleneck. By default the local embedder's bulk batching strategies are
 * compared on the same slice, in alternating rounds on fresh in-memory stores (the box is
 * shared, so before and after must see the same load): `arrival` (the caller's order, as
 * before) against `length` (shortest first, so a batch pads little). Besides wall-clock
 * windows/s it reports the process's CPU ms per window, which other processes' load
 * disturbs less.
 *
 *   npm run bench:ingest                                  # batching: BENCH_ROUNDS=3, 120 dialogues
 *   BENCH_COMPARE=workers npm run bench:ingest            # one thread vs the pool, then the full file
 */
import { availableParallelism } from 'node:os';

import { type BulkBatching } from '@app/embedding';
import { EmbeddingService } from '@app/embedding';
import { PgVectorStore, VECTOR_STORE } from '@app/vector';

import { IngestService } from '../src/ingest/ingest.service';
import { benchContext } from './support/app-context';
import { threadCpuMs } from './support/proc-cpu';
import { loadSgdConversations, sgdToMessages } from './support/sgd';
import { printJson } from './support/stats';

const processCpuMs = () => [...threadCpuMs(process.pid).values()].reduce((a, b) => a + b, 0);

async function ingestRun(messages: unknown[], workers: number, batching: BulkBatching = 'length') {
  const ctx = await benchContext({
    EMBEDDING_WORKERS: String(workers),
    EMBEDDING_BULK_BATCHING: batching,
  });
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
    const cpu0 = processCpuMs();
    const report = await ingest.ingestConversations(messages);
    const wallMs = performance.now() - t0;
    const cpuMs = processCpuMs() - cpu0;
    const store = ctx.get<PgVectorStore>(VECTOR_STORE);
    return {
      workers,
      batching,
      messages: messages.length,
      chunks_inserted: report.inserted,
      failed: report.failed.length,
      wall_s: Number((wallMs / 1000).toFixed(2)),
      chunks_per_s: Number((report.inserted / (wallMs / 1000)).toFixed(1)),
      embed_ms_per_chunk: Number((embedMs / Math.max(1, embedded)).toFixed(2)),
      cpu_ms_per_chunk: Number((cpuMs / Math.max(1, report.inserted)).toFixed(1)),
      embed_share_of_wall: Number((embedMs / wallMs).toFixed(2)),
      store_rows: await store.count('conversations'),
      store_bytes: await store.storageBytes(),
    };
  } finally {
    await ctx.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** `arrival` and `length` in alternating rounds (the order flips each round) on one slice. */
async function compareBatching(slice: unknown[], sliceSize: number, workers: number) {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const runs: Array<Awaited<ReturnType<typeof ingestRun>>> = [];
  for (let round = 0; round < rounds; round++) {
    const order: BulkBatching[] = round % 2 ? ['length', 'arrival'] : ['arrival', 'length'];
    for (const batching of order) {
      const run = await ingestRun(slice, workers, batching);
      runs.push(run);
      process.stderr.write(`round ${round + 1}: ${JSON.stringify(run)}\n`);
    }
  }
  const summary = (batching: BulkBatching) => {
    const mine = runs.filter((r) => r.batching === batching);
    return {
      chunks_per_s_median: median(mine.map((r) => r.chunks_per_s)),
      cpu_ms_per_chunk_median: median(mine.map((r) => r.cpu_ms_per_chunk)),
      runs: mine.map((r) => ({
        chunks_per_s: r.chunks_per_s,
        cpu_ms_per_chunk: r.cpu_ms_per_chunk,
      })),
    };
  };
  const before = summary('arrival');
  const after = summary('length');
  // The load of a shared box drifts between rounds: compare the two runs of each round.
  const paired = (value: (r: (typeof runs)[number]) => number) =>
    Array.from({ length: rounds }, (_, round) => {
      const pair = runs.slice(2 * round, 2 * round + 2);
      const get = (b: BulkBatching) => value(pair.find((r) => r.batching === b) ?? pair[0]);
      return get('length') / get('arrival');
    });
  return {
    conversations: sliceSize,
    windows: runs[0]?.chunks_inserted,
    workers,
    rounds,
    before_arrival: before,
    after_length: after,
    /** Per round, length ÷ arrival windows/s; and arrival ÷ length CPU per window. */
    speedup_wall_per_round: paired((r) => r.chunks_per_s).map((x) => Number(x.toFixed(2))),
    speedup_cpu_per_round: paired((r) => r.cpu_ms_per_chunk).map((x) => Number((1 / x).toFixed(2))),
    speedup_wall_median: Number(median(paired((r) => r.chunks_per_s)).toFixed(2)),
    speedup_cpu_median: Number(median(paired((r) => 1 / r.cpu_ms_per_chunk)).toFixed(2)),
  };
}

async function main() {
  const limit = process.env.BENCH_CONVERSATIONS
    ? Number(process.env.BENCH_CONVERSATIONS)
    : undefined;
  const sliceSize = Number(process.env.BENCH_BASELINE_CONVERSATIONS ?? 120);
  const all = loadSgdConversations(limit);
  const slice = sgdToMessages(all.slice(0, sliceSize));
  const poolWorkers = Math.min(4, availableParallelism());
  if (process.env.BENCH_COMPARE !== 'workers') {
    printJson({
      bench: 'ingest',
      dataset: 'sgd/conversations.jsonl',
      batching: await compareBatching(slice, sliceSize, poolWorkers),
    });
    return;
  }

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
