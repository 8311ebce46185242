/**
 * `/context` before, during and after an online `context-bridge reembed` (issue 39's
 * acceptance: 0 × 5xx, p99 during within 2× of before), in one run on one Postgres: the
 * service in its own process on an OpenAI-shaped loopback embedder at BENCH_FROM_DIM, history
 * ingested, /context called in a loop (c = BENCH_CONCURRENCY), then the real CLI moves the
 * store to BENCH_TO_DIM (3,072-d: halfvec) while the loop goes on. Prints the three latency
 * summaries, status counts, the reembed's own report and the p99 ratio as JSON.
 *
 *   bash scripts/pg-test-server.sh run -- npm run bench:reembed
 *   BENCH_CONVERSATIONS (1000: 2,000 windows), BENCH_TURNS (8), BENCH_FROM_DIM (1536), BENCH_TO_DIM (3072),
 *   BENCH_BATCH (256), BENCH_DUTY (50: the CLI's --duty), BENCH_CONCURRENCY (2), BENCH_PHASE_S (15: before and after), BENCH_SEED
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';

import { startFakeOpenAi } from '../test/fakes/openai-server';
import { startAppProcess } from '../test/support/app-process';
import { createServerDatabase } from '../test/support/postgres';
import { prng } from './support/prng';
import { printJson, summarize } from './support/stats';

const num = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const CONVERSATIONS = num('BENCH_CONVERSATIONS', 1000);
const TURNS = num('BENCH_TURNS', 8);
const FROM = { model: 'text-embedding-3-small', dimension: num('BENCH_FROM_DIM', 1536) };
const TO = { model: 'text-embedding-3-large', dimension: num('BENCH_TO_DIM', 3072) };
const BATCH = num('BENCH_BATCH', 256);
const CONCURRENCY = num('BENCH_CONCURRENCY', 2);
const DUTY = num('BENCH_DUTY', 50);
const PHASE_MS = num('BENCH_PHASE_S', 15) * 1000;
const SEED = num('BENCH_SEED', Math.floor(Math.random() * 2 ** 31));
const TOPICS = ['espresso boiler leak', 'standing desk motor', 'invoice refund', 'delivery date'];
const WORDS = ['gasket', 'warranty', 'courier', 'Monday', 'refund', 'motor', 'filter', 'tracking'];

/** `boot`: the CLI process starting (its own CPU on this box), before its run began. */
type Phase = 'before' | 'boot' | 'during' | 'after';
/** The run's own phases (from its report's `phases_ms`), inside `during`. */
type RunPhase = 'backfill' | 'index' | 'switch';
interface Sample {
  start: number;
  ms: number;
  status: number;
}

async function main() {
  const random = prng(SEED);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
  const openai = await startFakeOpenAi({ apiKey: 'sk-bench', dimension: FROM.dimension });
  const database = await createServerDatabase();
  const env = {
    DATABASE_URL: database.url,
    NODE_ENV: 'test',
    EMBEDDING_PROVIDER: 'openai',
    EMBEDDING_MODEL: FROM.model,
    EMBEDDING_DIMENSION: String(FROM.dimension),
    OPENAI_API_KEY: 'sk-bench',
    OPENAI_BASE_URL: openai.baseURL,
  };
  const app = await startAppProcess(env);
  try {
    for (let c = 0; c < CONVERSATIONS; c += 50) {
      const records = [];
      for (let k = c; k < Math.min(CONVERSATIONS, c + 50); k++) {
        for (let i = 0; i < TURNS; i++) {
          records.push({
            conversation_uid: `conv_${k}`,
            contact_uid: `ctc_${k % Math.ceil(CONVERSATIONS / 3)}`,
            channel: 'sms',
            occurred_at: new Date(Date.UTC(2026, 0, 5, 10, i)).toISOString(),
            sender: i % 2 ? 'agent' : 'customer',
            text: `${pick(TOPICS)}: ${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} (${k}.${i})`,
          });
        }
      }
      const r = await fetch(`${app.url}/ingest/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(records),
      });
      if (!r.ok) {
        throw new Error(`ingest answered ${r.status}`);
      }
    }

    const samples: Sample[] = [];
    let measuring = false;
    let running = true;
    const load = Array.from({ length: CONCURRENCY }, async () => {
      while (running) {
        const start = performance.now();
        const r = await fetch(`${app.url}/context`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            transcript: `${pick(TOPICS)} ${pick(WORDS)}`,
            contact_uid: `ctc_${Math.floor(random() * Math.ceil(CONVERSATIONS / 3))}`,
          }),
        });
        await r.arrayBuffer();
        if (measuring) {
          samples.push({ start, ms: performance.now() - start, status: r.status });
        }
      }
    });
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await sleep(3000); // warm-up
    measuring = true;
    const t0 = performance.now();
    await sleep(PHASE_MS);
    const cliStart = performance.now();
    const cli = await runCli(
      [
        'reembed',
        '--model',
        TO.model,
        '--dimension',
        String(TO.dimension),
        '--batch',
        String(BATCH),
        '--duty',
        String(DUTY),
        '--no-progress',
      ],
      env,
    );
    const cliEnd = performance.now();
    await sleep(PHASE_MS);
    running = false;
    await Promise.all(load);

    const report = cli.stdout
      ? (JSON.parse(cli.stdout) as {
          elapsed_ms: number;
          embedded: number;
          phases_ms: Record<RunPhase, number>;
        })
      : undefined;
    // The run itself is the last `elapsed_ms` of the CLI's life; before that it was booting.
    const runStart = report ? cliEnd - report.elapsed_ms : cliStart;
    const phaseOf = (t: number): Phase =>
      t < cliStart ? 'before' : t < runStart ? 'boot' : t < cliEnd ? 'during' : 'after';
    const by = (phase: Phase) => samples.filter((x) => phaseOf(x.start) === phase);
    const statuses = Object.fromEntries(
      (['before', 'boot', 'during', 'after'] as const).map((phase) => [
        phase,
        by(phase).reduce<Record<number, number>>(
          (n, x) => ({ ...n, [x.status]: (n[x.status] ?? 0) + 1 }),
          {},
        ),
      ]),
    );
    const latency = (phase: Phase) => summarize(by(phase).map((x) => x.ms));
    const runPhaseOf = (t: number): RunPhase => {
      const since = t - runStart;
      const p = report?.phases_ms ?? { backfill: Infinity, index: 0, switch: 0 };
      return since < p.backfill ? 'backfill' : since < p.backfill + p.index ? 'index' : 'switch';
    };
    const byRunPhase = Object.fromEntries(
      (['backfill', 'index', 'switch'] as const).map((phase) => [
        phase,
        summarize(
          by('during')
            .filter((x) => runPhaseOf(x.start) === phase)
            .map((x) => x.ms),
        ),
      ]),
    );
    const before = latency('before');
    const during = latency('during');
    const fivexx = samples.filter((x) => x.status >= 500).length;
    const rate = (phase: Phase, ms: number) =>
      Math.round((by(phase).length / Math.max(1, ms)) * 10_000) / 10;
    printJson({
      bench: 'reembed',
      seed: SEED,
      load_average: loadavg().map((x) => Math.round(x * 100) / 100),
      embedded: report?.embedded,
      duty_pct: DUTY,
      from: FROM,
      to: TO,
      concurrency: CONCURRENCY,
      batch: BATCH,
      cli_boot_s: Math.round((runStart - cliStart) / 100) / 10,
      reembed_s: Math.round((cliEnd - runStart) / 100) / 10,
      cli_exit: cli.code,
      cli_report: report ?? cli.stderr.slice(-500),
      context_ms: { before, boot: latency('boot'), during, after: latency('after') },
      context_ms_during_by_run_phase: byRunPhase,
      throughput_per_s: {
        before: rate('before', cliStart - t0),
        during: rate('during', cliEnd - runStart),
      },
      statuses,
      p99_during_over_before: Math.round((during.p99 / Math.max(0.01, before.p99)) * 100) / 100,
      acceptance: { no_5xx: fivexx === 0, p99_within_2x: during.p99 <= 2 * before.p99 },
    });
  } finally {
    await app.stop();
    await database.drop();
    await openai.close();
  }
}

function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['bin/context-bridge.js', ...args], {
      cwd: join(__dirname, '..'),
      env: { PATH: process.env.PATH, LOG_LEVEL: 'error', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

void main();
