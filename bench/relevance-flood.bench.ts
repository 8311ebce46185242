/**
 * A /relevance flood beside live calls: four clients post /relevance back to back, each
 * call 48 candidates of 20,000 characters (just under the 1 MB body limit), for 30 s, while
 * /context calls leave open-loop at a live call's pace. The acceptance: every /relevance
 * call answers within 10 s (200, or 503 `overloaded`), /context keeps p50 ≤ 100 ms with none
 * later than `timeout_ms` + 25 ms, and the server's RSS stays under 1.6 GB.
 *
 *   npm run bench:relevance-flood   # BENCH_FLOOD_S (30), BENCH_CONTEXT_RPS (10), BENCH_URL
 *
 * /context first runs alone for BENCH_BASELINE_S (10) at the same pace: on a shared box that
 * says how much of its latency the flood added.
 *
 * Without BENCH_URL the service runs in its own process on an in-memory store, seeded with
 * SGD history; with it (e.g. `npm start`'s http://127.0.0.1:3004), that server is flooded
 * and /context asks about its demo contact.
 */
import { JsonClient } from './support/http-client';
import { contextShooter, LATE_SLACK_MS, openLoop, post, scrapeGauges } from './support/load-steps';
import { startServerProcess } from './support/server-process';
import { loadSgdConversations, sgdToMessages } from './support/sgd';
import { printJson, summarize } from './support/stats';

const CLIENTS = 4;
const CANDIDATES = 48;
const CANDIDATE_CHARS = 20_000;
const ANSWER_WITHIN_MS = 10_000;
const RSS_LIMIT_MB = 1600;
const CONTEXT_P50_LIMIT_MS = 100;
const TIMEOUT_MS = 800;

/** Distinct candidate texts per call (no cache may flatter the numbers), from SGD turns. */
function candidateMaker(): (call: number) => string[] {
  const turns = loadSgdConversations(400).flatMap((c) => c.turns.map((t) => t.text));
  return (call) =>
    Array.from({ length: CANDIDATES }, (_, k) => {
      let text = `call ${call} candidate ${k}:`;
      for (let i = (call * 131 + k * 17) % turns.length; text.length < CANDIDATE_CHARS; i++) {
        text += ` ${turns[i % turns.length]}`;
      }
      return text.slice(0, CANDIDATE_CHARS);
    });
}

interface RelevanceShot {
  ms: number;
  status: number;
  error?: string;
}

async function flood(url: string, seconds: number, until: () => boolean) {
  const client = new JsonClient(url, CLIENTS);
  const candidates = candidateMaker();
  const shots: RelevanceShot[] = [];
  let call = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (!until()) {
        const n = call++;
        const t0 = performance.now();
        try {
          const response = await client.post<{ error?: string }>('/relevance', {
            query: 'when will my dining table ship and can I change the delivery address',
            candidates: candidates(n),
          });
          shots.push({
            ms: performance.now() - t0,
            status: response.status,
            error: response.body.error,
          });
        } catch (error) {
          shots.push({ ms: performance.now() - t0, status: 0, error: String(error) });
        }
      }
    }),
  );
  client.close();
  return { shots, seconds };
}

async function main() {
  const seconds = Number(process.env.BENCH_FLOOD_S ?? 30);
  const contextRps = Number(process.env.BENCH_CONTEXT_RPS ?? 10);
  const own = process.env.BENCH_URL
    ? undefined
    : await startServerProcess({ DATA_DIR: 'memory://' });
  const url = process.env.BENCH_URL ?? (own as { url: string }).url;
  try {
    let contacts = ['ctc_demo_alice'];
    if (own) {
      const messages = sgdToMessages(loadSgdConversations(24), 4);
      await post(`${url}/ingest/conversations`, messages);
      contacts = [...new Set(messages.map((m) => m.contact_uid))];
    }
    const fire = contextShooter(url, contacts, TIMEOUT_MS, Date.now().toString(36));
    for (let i = 0; i < 40; i++) {
      await fire(i); // warm-up
    }
    const baseline = await openLoop(contextRps, Number(process.env.BENCH_BASELINE_S ?? 10), fire);
    await scrapeGauges(url); // resets the event-loop histogram

    let rssMaxMb = 0;
    const end = performance.now() + seconds * 1000;
    const sampler = setInterval(() => {
      void scrapeGauges(url).then(
        (g) => (rssMaxMb = Math.max(rssMaxMb, g.rssMb)),
        () => undefined,
      );
    }, 1000);
    const [relevance, context] = await Promise.all([
      flood(url, seconds, () => performance.now() >= end),
      openLoop(contextRps, seconds, fire),
    ]);
    clearInterval(sampler);
    const gauges = await scrapeGauges(url);
    rssMaxMb = Math.max(rssMaxMb, gauges.rssMb);

    const statuses: Record<string, number> = {};
    for (const s of relevance.shots) {
      const key = s.status === 200 ? '200' : `${s.status} ${s.error ?? ''}`.trim();
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
    const ok = context.shots.filter((s) => s.status === 200);
    const late = ok.filter((s) => (s.serverMs ?? 0) > (s.timeoutMs ?? 0) + LATE_SLACK_MS);
    const relevanceMs = summarize(relevance.shots.map((s) => s.ms));
    const contextClient = summarize(context.shots.map((s) => s.clientMs));
    // Within 10 s, and a 200 or a 503 (`overloaded`, or `relevance_timeout` at the deadline).
    const answeredInTime = relevance.shots.every(
      (s) => s.ms <= ANSWER_WITHIN_MS && (s.status === 200 || s.status === 503),
    );
    printJson({
      bench: 'relevance-flood',
      flood_s: seconds,
      clients: CLIENTS,
      candidates: CANDIDATES,
      candidate_chars: CANDIDATE_CHARS,
      context_alone: {
        requests: baseline.shots.length,
        client_ms: summarize(baseline.shots.map((s) => s.clientMs)),
        server_ms: summarize(baseline.shots.map((s) => s.serverMs ?? 0)),
        partial: baseline.shots.filter((s) => s.partial).length,
      },
      relevance: { calls: relevance.shots.length, statuses, ms: relevanceMs },
      context: {
        offered_rps: contextRps,
        requests: context.shots.length,
        client_ms: contextClient,
        server_ms: summarize(ok.map((s) => s.serverMs ?? 0)),
        late: late.length,
        non_200: context.shots.length - ok.length,
        shed: ok.filter((s) => s.shed).length,
        partial: ok.filter((s) => s.partial).length,
      },
      rss_max_mb: rssMaxMb,
      event_loop_ms: {
        p50: gauges.eventLoopP50Ms,
        p99: gauges.eventLoopP99Ms,
        max: gauges.eventLoopMaxMs,
      },
      acceptance: {
        relevance_answers_within_10s: answeredInTime,
        context_p50_within_100ms: contextClient.p50 <= CONTEXT_P50_LIMIT_MS,
        context_none_late: late.length === 0 && ok.length === context.shots.length,
        rss_under_1600mb: rssMaxMb < RSS_LIMIT_MB,
      },
    });
  } finally {
    await own?.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
