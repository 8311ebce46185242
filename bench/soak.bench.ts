/**
 * A bounded soak: steady open-loop /context traffic (half the closed-loop ceiling), signed
 * Podium webhook deliveries (2/s) and one bulk ingest, for BENCH_SOAK_S (600) seconds, the
 * server in its own process. Every 30 s: RSS, heap, late answers and non-200s. The end
 * compares RSS and heap with the first window after warm-up: growth, not absolute size, is
 * what a leak shows. (Coalescer, contact and query caches are LRU-bounded by construction.)
 *
 *   npm run bench:soak    # BENCH_SOAK_S (600), BENCH_TIMEOUT_MS (800)
 *   DATABASE_URL=postgres://… npm run bench:soak   # PGlite and that server, one after the other
 */
import { randomUUID } from 'node:crypto';

import { deliverPodiumEvent, podiumEvent, podiumMessage } from '../test/fakes/podium-webhooks';
import { benchEngines } from './support/engines';
import { contextShooter, openLoop, post, scrapeGauges, stepReport } from './support/load-steps';
import { startServerProcess } from './support/server-process';
import { loadSgdConversations, sgdToMessages } from './support/sgd';
import { printJson, runConcurrent } from './support/stats';

const SECRET = 'whsec_soak_bench';
const WINDOW_S = 30;

async function main() {
  const soakS = Number(process.env.BENCH_SOAK_S ?? 600);
  const timeoutMs = Number(process.env.BENCH_TIMEOUT_MS ?? 800);
  const engines: Record<string, unknown> = {};
  for (const { engine, env } of benchEngines({ DATA_DIR: 'memory://' })) {
    engines[engine] = await soak({ ...env, PODIUM_WEBHOOK_SECRET: SECRET }, soakS, timeoutMs);
  }
  printJson({ bench: 'soak', soak_s: soakS, timeout_ms: timeoutMs, engines });
}

async function soak(env: Record<string, string>, soakS: number, timeoutMs: number) {
  const server = await startServerProcess(env);
  const url = server.url;
  const run = Date.now().toString(36);
  const conversations = loadSgdConversations(240);
  try {
    const history = sgdToMessages(conversations.slice(0, 120), 8);
    await post(`${url}/ingest/conversations`, history);
    const contacts = [...new Set(history.map((m) => m.contact_uid))];
    const fire = contextShooter(url, contacts, timeoutMs, run);
    await runConcurrent(150, 8, async (i) => void (await fire(i)));
    const closed = await runConcurrent(200, 8, async (i) => void (await fire(i)));
    const rate = closed.latencies.length / (closed.wallMs / 1000) / 2;

    let webhooks = 0;
    let webhookFailures = 0;
    let running = true;
    const deliveries = (async () => {
      while (running) {
        const event = podiumEvent(
          'message.received',
          podiumMessage({
            contactUid: contacts[webhooks % contacts.length],
            conversationUid: `soak-${run}-${webhooks % 50}`,
            body: `soak message ${webhooks}: is the order for the blue lamp still on time?`,
          }),
          randomUUID(),
        );
        const result = await deliverPodiumEvent(`${url}/webhooks/podium`, SECRET, event);
        webhooks++;
        webhookFailures += result.status === 202 ? 0 : 1;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    const ingest = post(
      `${url}/ingest/conversations`,
      sgdToMessages(conversations.slice(120), 8).map((m) => ({
        ...m,
        conversation_uid: `${m.conversation_uid}-${run}`,
      })),
    );

    const windows = [];
    for (let elapsed = 0; elapsed < soakS; elapsed += WINDOW_S) {
      const result = await openLoop(rate, Math.min(WINDOW_S, soakS - elapsed), fire);
      const gauges = await scrapeGauges(url);
      const row = stepReport(rate, result, gauges);
      windows.push({ at_s: elapsed + WINDOW_S, heap_mb: gauges.heapMb, ...row });
    }
    running = false;
    await Promise.all([deliveries, ingest]);
    const baseline = windows[Math.min(1, windows.length - 1)]; // after warm-up
    const last = windows[windows.length - 1];
    const growth = (from: number, to: number) => Number((((to - from) / from) * 100).toFixed(1));
    return {
      rate_rps: Number(rate.toFixed(1)),
      windows: windows.map((w) => ({
        at_s: w.at_s,
        rss_mb: w.rss_mb,
        heap_mb: w.heap_mb,
        p99_ms: w.server_ms.p99,
        late: w.late,
        non_200: w.non_200,
        partial_rate: w.partial_rate,
        event_loop_p99_ms: w.event_loop_ms.p99,
      })),
      summary: {
        requests: windows.reduce((a, w) => a + w.requests, 0),
        late: windows.reduce((a, w) => a + w.late, 0),
        non_200: windows.reduce((a, w) => a + w.non_200, 0),
        webhooks_delivered: webhooks,
        webhook_failures: webhookFailures,
        rss_growth_pct_after_warmup: growth(baseline.rss_mb, last.rss_mb),
        heap_growth_pct_after_warmup: growth(baseline.heap_mb, last.heap_mb),
      },
    };
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
