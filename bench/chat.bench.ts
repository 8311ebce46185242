/**
 * R42 chat: time to the first SSE event, the first answer chunk and `citations` (p50/p95)
 * over HTTP on the real app in its own process, with the model played by the Anthropic test
 * server at a fixed token rate; the baseline in the same run is one client at a time against
 * eight concurrent clients. Then retrieval hit@5 on SQuAD's 500-question sample with and
 * without the current-week theme boost.
 *
 *   npm run bench:chat     # BENCH_REQUESTS (default 120), BENCH_DELTA_MS (default 10)
 */
import { createEmbeddingProvider } from '@app/embedding';

import { DEMO_TOPICS } from '../src/demo/demo-kb';
import { startFakeAnthropic } from '../test/fakes/anthropic-server';
import { postSse } from '../test/support/sse';
import { squadHitAtFive } from './support/chat-quality';
import { startServerProcess } from './support/server-process';
import { printJson, runConcurrent, summarize } from './support/stats';

const log = (message: string) => process.stderr.write(`${message}\n`);

/** Questions the demo KB covers, phrased a few ways so the query cache does not flatter. */
const QUESTIONS = [
  'What defines a role in a holacratic organisation?',
  'Who assigns people to roles in a circle?',
  'How should I give corrective feedback?',
  'What should I do when I receive feedback I disagree with?',
  'What happens in a tactical meeting?',
  'How do asynchronous status updates work?',
];

type Event = { type: string };

async function latency(requests: number, deltaMs: number) {
  const anthropic = await startFakeAnthropic({ apiKey: 'bench-key', deltaDelayMs: deltaMs });
  const server = await startServerProcess({
    DATA_DIR: 'memory://',
    SEED_DEMO_DATA: 'true',
    LLM_PROVIDER: 'anthropic',
    ANTHROPIC_API_KEY: 'bench-key',
    ANTHROPIC_BASE_URL: anthropic.baseURL,
  });
  try {
    const firstEvent: number[] = [];
    const firstChunk: number[] = [];
    const citations: number[] = [];
    const fire = (record: boolean, offset: number) => async (i: number) => {
      const started = performance.now();
      const reply = await postSse<Event>(`${server.url}/chat`, {
        query: `${QUESTIONS[(offset + i) % QUESTIONS.length]} (${offset + i})`,
        userId: 'demo-employee',
      });
      const at = (type: string) => reply.events.find((e) => e.data.type === type)?.at;
      if (reply.status !== 200 || at('citations') === undefined) {
        throw new Error(
          `unexpected reply: ${reply.status} ${JSON.stringify(reply.events.map((e) => e.data.type))}`,
        );
      }
      if (record) {
        firstEvent.push(reply.events[0].at - started);
        firstChunk.push(at('chunk')! - started);
        citations.push(at('citations')! - started);
      }
    };
    await runConcurrent(30, 4, fire(false, 10_000)); // warm-up
    const run = async (concurrency: number, offset: number) => {
      firstEvent.length = firstChunk.length = citations.length = 0;
      const { wallMs } = await runConcurrent(requests, concurrency, fire(true, offset));
      return {
        concurrency,
        first_event_ms: summarize(firstEvent),
        first_chunk_ms: summarize(firstChunk),
        citations_ms: summarize(citations),
        throughput_rps: Number((requests / (wallMs / 1000)).toFixed(1)),
      };
    };
    return {
      model_token_rate: `${deltaMs} ms per delta (~${Math.round(1000 / deltaMs)} deltas/s)`,
      baseline_concurrency_1: await run(1, 0),
      concurrency_8: await run(8, 1000),
    };
  } finally {
    await server.stop();
    await anthropic.close();
  }
}

async function main() {
  const requests = Number(process.env.BENCH_REQUESTS ?? 120);
  const deltaMs = Number(process.env.BENCH_DELTA_MS ?? 10);
  const stream = await latency(requests, deltaMs);
  const threshold = await localThreshold();
  const quality = await squadHitAtFive(threshold, log);
  printJson({ bench: 'chat', demo_topics: DEMO_TOPICS.length, stream, squad_retrieval: quality });
}

/** The local model's calibrated default, as the running service uses it. */
async function localThreshold(): Promise<number> {
  const provider = createEmbeddingProvider({ provider: 'local', workers: 1 });
  const info = await provider.init();
  await provider.close();
  return info.defaultThreshold;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
