/**
 * The first /context calls after readiness, as an operator meets them: `npm start`'s command
 * (the built `dist/`, its V8 flags) on a fresh data dir (the demo seed, then the warm-up),
 * and as soon as /health/ready answers 200, BENCH_CALLS (30) sequential calls for the demo
 * contact, each with a distinct transcript (so each one embeds). Client-side latency beside
 * the server's `meta.elapsed_ms`; BENCH_RUNS (3) fresh starts. Needs `npm run build` first.
 *
 *   npm run build && npm run bench:first-calls
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type ContextBundle } from '../src/context/context.dto';
import { DEMO_ALICE_PHRASES } from './support/demo-phrases';
import { JsonClient } from './support/http-client';
import { printJson, summarize } from './support/stats';

const ROOT = join(__dirname, '..');
const CALLS = Number(process.env.BENCH_CALLS ?? 30);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const PORT = Number(process.env.BENCH_PORT ?? 3993);

async function untilReady(url: string, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}`);
    }
    if (
      await fetch(`${url}/health/ready`).then(
        (r) => r.ok,
        () => false,
      )
    ) {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Its own spawn rather than `startServerProcess`: that one runs the TypeScript sources under a
 * loader and polls readiness every 200 ms; this one runs what `npm start` runs and starts
 * calling within 50 ms of readiness.
 */
async function oneRun(run: number) {
  const dataDir = mkdtempSync(join(tmpdir(), 'cb-first-calls-'));
  const started = performance.now();
  const child = spawn(process.execPath, ['--no-liftoff', join(ROOT, 'dist', 'src', 'main.js')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${PORT}`;
  const client = new JsonClient(url, 1);
  try {
    await untilReady(url, child);
    const readyS = (performance.now() - started) / 1000;
    const clientMs: number[] = [];
    const serverMs: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      const { status, body } = await client.post<ContextBundle>('/context', {
        transcript: `${DEMO_ALICE_PHRASES[(run * CALLS + i) % DEMO_ALICE_PHRASES.length]} (${run}.${i})`,
        contact_uid: 'ctc_demo_alice',
      });
      clientMs.push(performance.now() - t0);
      if (status !== 200) {
        throw new Error(`call ${i}: HTTP ${status}`);
      }
      serverMs.push(body.meta.elapsed_ms);
    }
    return {
      run,
      ready_after_s: Number(readyS.toFixed(1)),
      first_call_client_ms: Number(clientMs[0].toFixed(1)),
      client_ms: summarize(clientMs),
      server_ms: summarize(serverMs),
    };
  } finally {
    client.close();
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (!existsSync(join(ROOT, 'dist', 'src', 'main.js'))) {
    throw new Error('dist/src/main.js is missing: run `npm run build` first (npm start does)');
  }
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    runs.push(await oneRun(run));
  }
  printJson({
    bench: 'first-calls',
    calls: CALLS,
    runs,
    worst_client_p99_ms: Math.max(...runs.map((r) => r.client_ms.p99)),
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
