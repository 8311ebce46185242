/**
 * `/search` latency over HTTP on the real app: p50/p95/p99 and throughput at 10 concurrent
 * clients, against a single-client baseline in the same run. Queries are distinct questions
 * built from SGD slot facts, so the query-embedding cache does not flatter the numbers.
 *
 *   npm run bench:search     # BENCH_CONVERSATIONS (default 200), BENCH_REQUESTS (default 400)
 *   DATABASE_URL=postgres://… npm run bench:search   # PGlite and that server, side by side
 */
import { type IngestReport } from '../src/ingest/ingest.dto';
import { benchEngines } from './support/engines';
import { startServerProcess } from './support/server-process';
import { loadSgdConversations, loadSgdSlotFacts, sgdToMessages } from './support/sgd';
import { printJson, runConcurrent, summarize } from './support/stats';

async function main() {
  const conversations = loadSgdConversations(Number(process.env.BENCH_CONVERSATIONS ?? 200));
  const requests = Number(process.env.BENCH_REQUESTS ?? 400);
  const engines: Record<string, unknown> = {};
  for (const { engine, env } of benchEngines({ DATA_DIR: 'memory://' })) {
    engines[engine] = await benchEngine(conversations, requests, env);
  }
  printJson({ bench: 'search', conversations: conversations.length, engines });
}

async function benchEngine(
  conversations: ReturnType<typeof loadSgdConversations>,
  requests: number,
  env: Record<string, string>,
) {
  // The server in its own process: an in-process client would share its event loop.
  const server = await startServerProcess(env);
  const url = server.url;
  try {
    const ingest = (await (
      await fetch(`${url}/ingest/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(sgdToMessages(conversations)),
      })
    ).json()) as IngestReport;
    const known = new Map(conversations.map((c) => [c.conversation_id, c.fake_contact_id]));
    const questions = loadSgdSlotFacts()
      .filter((f) => known.has(f.conversation_id))
      .map((f, i) => ({
        query: `what was the ${f.slot_description.toLowerCase()} (${f.service.split('_')[0]}, ask ${i})`,
        // Half per-contact (the bridge's path), half unfiltered (HNSW).
        contact_uid: i % 2 === 0 ? known.get(f.conversation_id) : undefined,
      }));
    const fire = (offset: number) => async (i: number) => {
      const q = questions[(offset + i) % questions.length];
      const response = await fetch(`${url}/search`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...q, top_k: 5 }),
      });
      if (response.status !== 200) {
        throw new Error(`HTTP ${response.status}: ${await response.text()}`);
      }
      await response.arrayBuffer();
    };
    // Warm-up: V8 tiers up the WASM and hot JS over the first few hundred requests.
    await runConcurrent(200, 8, fire(questions.length - 200));
    const single = await runConcurrent(Math.min(200, requests), 1, fire(0));
    const ten = await runConcurrent(requests, 10, fire(1000));
    const report = (r: { latencies: number[]; wallMs: number }) => ({
      ...summarize(r.latencies),
      throughput_rps: Number((r.latencies.length / (r.wallMs / 1000)).toFixed(1)),
    });
    return {
      store_rows: ingest.inserted + ingest.skipped,
      baseline_concurrency_1: report(single),
      concurrency_10: report(ten),
    };
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
