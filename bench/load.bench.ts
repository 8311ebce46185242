/**
 * Never late, at any load: /context driven open-loop (requests leave on a schedule, whatever
 * the server does) in steps up to 2× the ceiling measured in the same run, first alone, then
 * with a bulk ingest running beside it. The server runs in its own process. Per step: offered
 * and achieved rate, client and server latency, partial rate, sheds, answers later than
 * `timeout_ms` + 25 ms (server-side), non-200s, event-loop delay and RSS. Stops by itself.
 *
 *   npm run bench:load    # BENCH_STEP_S (8), BENCH_TIMEOUT_MS (800), BENCH_CONVERSATIONS (240)
 *   DATABASE_URL=postgres://… npm run bench:load   # PGlite and that server, side by side
 */
import { benchEngines } from './support/engines';
import { contextShooter, openLoop, post, scrapeGauges, stepReport } from './support/load-steps';
import { startServerProcess } from './support/server-process';
import { loadSgdConversations, sgdToMessages } from './support/sgd';
import { printJson, runConcurrent } from './support/stats';

const GROUP = 8;
const STEPS = [0.25, 0.5, 1, 1.5, 2];

async function main() {
  const stepS = Number(process.env.BENCH_STEP_S ?? 8);
  const timeoutMs = Number(process.env.BENCH_TIMEOUT_MS ?? 800);
  const all = loadSgdConversations(Number(process.env.BENCH_CONVERSATIONS ?? 240) * 2);
  // The first half is the history queried; the second half is what the concurrent ingest adds.
  const history = all.slice(0, all.length / 2);
  const extra = all.slice(all.length / 2);
  const engines: Record<string, unknown> = {};
  for (const { engine, env } of benchEngines({ DATA_DIR: 'memory://' })) {
    engines[engine] = await benchEngine(env, history, extra, stepS, timeoutMs);
  }
  printJson({ bench: 'load', step_s: stepS, timeout_ms: timeoutMs, engines });
}

async function benchEngine(
  env: Record<string, string>,
  history: ReturnType<typeof loadSgdConversations>,
  extra: ReturnType<typeof loadSgdConversations>,
  stepS: number,
  timeoutMs: number,
) {
  const server = await startServerProcess(env);
  const url = server.url;
  const run = Date.now().toString(36); // new ids each run: the concurrent ingest really embeds
  try {
    await post(`${url}/ingest/conversations`, sgdToMessages(history, GROUP));
    const contacts = [...new Set(sgdToMessages(history, GROUP).map((m) => m.contact_uid))];
    const fire = contextShooter(url, contacts, timeoutMs, run);
    // Warm-up, then the closed-loop ceiling (8 clients) that the open-loop steps scale from.
    await runConcurrent(150, 8, async (i) => void (await fire(i)));
    const closed = await runConcurrent(240, 8, async (i) => void (await fire(i)));
    const ceiling = closed.latencies.length / (closed.wallMs / 1000);
    await scrapeGauges(url); // resets the event-loop histogram
    const steps = async () => {
      const rows = [];
      for (const factor of STEPS) {
        const result = await openLoop(ceiling * factor, stepS, fire);
        rows.push({ factor, ...stepReport(ceiling * factor, result, await scrapeGauges(url)) });
      }
      return rows;
    };
    const alone = await steps();
    // With a bulk ingest at full speed beside the live traffic (one upload at a time, as the
    // service admits them), batches of 40 new conversations until the steps end.
    let ingesting = true;
    let ingested = 0;
    const ingest = (async () => {
      for (let i = 0; ingesting; i = (i + 40) % extra.length) {
        const batch = extra.slice(i, i + 40).map((c) => ({
          ...c,
          conversation_id: `${c.conversation_id}-${run}-${i}`,
        }));
        const report = await post(`${url}/ingest/conversations`, sgdToMessages(batch, GROUP));
        ingested += (report as { inserted: number }).inserted;
      }
    })();
    const withIngest = await steps();
    ingesting = false;
    await ingest;
    return {
      closed_loop_ceiling_rps: Number(ceiling.toFixed(1)),
      alone,
      with_ingest: { windows_ingested: ingested, steps: withIngest },
    };
  } finally {
    await server.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
