/**
 * Where a request's server CPU goes, this checkout against BENCH_BASELINE_ROOT (another checkout
 * with its own node_modules), to attribute a CPU regression of the hot path. Both servers run on
 * in-memory PGlite with the demo store; `/context` (or BENCH_ROUTE=search) at BENCH_CONCURRENCY
 * (default 8) in BENCH_ROUNDS (8) interleaved rounds of BENCH_REQUESTS×4 (40×4) requests, every
 * request a distinct text, so every one embeds.
 *
 *   BENCH_BASELINE_ROOT=/tmp/wt-49630dd npm run bench:cpu-split      # BENCH_PERF=true: + perf
 *
 * Prints, per side, throughput and CPU ms per request by thread: the main thread, V8's helper
 * threads (concurrent GC and compilation of every isolate), each worker thread busiest first
 * (the two embedding workers, then the PGlite worker; /proc does not name them) and the rest.
 * With BENCH_PERF=true (Linux `perf`, root), also the main thread's CPU per request by module
 * (see bench/support/perf-modules.ts), largest differences first; BENCH_PERF=functions adds
 * every thread's by function and its GC share (bench/support/perf-functions.ts).
 * BENCH_SHAPE=calls sends live calls' chunks (call_id, six turns a call) instead of lone ones;
 * BENCH_STORE=sgd serves bench:context's SGD store (each checkout's bench/.cache/sgd-g8-240,
 * built by its bench:context, copied) with its questions. BENCH_CURRENT_ROOT: another checkout
 * as "current" (a clean worktree, when others edit this one); BENCH_CURRENT_ENV and
 * BENCH_BASELINE_ENV (`K=V,K=V`) set one side's environment (one checkout against itself). CPU time is what a loaded box
 * inflates least, but batching in the embedding workers still depends on timing: read a
 * loaded box's figures as such.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';

import { demoAliceBody, demoAliceCallBody } from './support/demo-phrases';
import { JsonClient } from './support/http-client';
import { interleavedRounds, pairedRatios, throughputRatio } from './support/interleaved-rounds';
import { type FunctionProfile, functionTables, perfFunctions } from './support/perf-functions';
import { PERF_NODE_OPTIONS, perfModules, startPerf } from './support/perf-modules';
import { taskCpuMs } from './support/proc-cpu';
import { envList, startServerProcess } from './support/server-process';
import { sgdStore } from './support/sgd-store';
import { loadRequest } from './support/sgd-traffic';
import { printJson } from './support/stats';

const BASELINE = process.env.BENCH_BASELINE_ROOT;
const ROUTE = process.env.BENCH_ROUTE === 'search' ? 'search' : 'context';
/** `calls`: /context chunks of live calls (call_id: coalescer, call memory), not lone ones. */
const CALLS = process.env.BENCH_SHAPE === 'calls';
/** `sgd`: each side's SGD store (bench:context's, copied) and its questions, not the demo one. */
const SGD = process.env.BENCH_STORE === 'sgd';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 40);
const LEVELS = (process.env.BENCH_CONCURRENCY ?? '8').split(',').map(Number);
/** `functions`: every thread's CPU by function and GC besides the main thread's modules. */
const PERF_FUNCTIONS = process.env.BENCH_PERF === 'functions';
const PERF = process.env.BENCH_PERF === 'true' || PERF_FUNCTIONS;
/** Rows of the module table printed. */
const TOP = Number(process.env.BENCH_TOP ?? 25);

type Side = 'current' | 'baseline';
const SIDES: Side[] = ['current', 'baseline'];

/** CPU ms so far of every thread of `pid` by class; worker threads by thread id. */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let name: string;
    try {
      name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
    } catch {
      continue; // the thread ended between the listing and the read
    }
    const key =
      Number(tid) === pid
        ? 'main'
        : name.startsWith('V8') || name.startsWith('v8')
          ? 'v8_helpers'
          : name === 'WorkerThread'
            ? `worker:${tid}`
            : 'other';
    out.set(key, (out.get(key) ?? 0) + taskCpuMs(pid, Number(tid)));
  }
  return out;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Per request: fixed classes, then worker threads busiest first. */
function perRequest(spent: Map<string, number>, requests: number) {
  const of = (key: string) => round3((spent.get(key) ?? 0) / requests);
  const workers = [...spent]
    .filter(([key]) => key.startsWith('worker:'))
    .map(([, ms]) => round3(ms / requests))
    .sort((a, b) => b - a);
  const total = [...spent.values()].reduce((a, b) => a + b, 0);
  return {
    total: round3(total / requests),
    main: of('main'),
    v8_helpers: of('v8_helpers'),
    worker_threads_busiest_first: workers,
    other: of('other'),
  };
}

async function main() {
  if (!BASELINE) {
    throw new Error('BENCH_BASELINE_ROOT: a checkout of the baseline with its own node_modules');
  }
  delete process.env.DATABASE_URL; // in-memory PGlite on both sides
  const roots: Record<Side, string> = {
    current: process.env.BENCH_CURRENT_ROOT ?? join(__dirname, '..'),
    baseline: BASELINE,
  };
  const dir = mkdtempSync(join(tmpdir(), 'cpu-split-'));
  const store = SGD ? sgdStore(roots, dir) : undefined;
  const env = (side: Side) => ({
    ...(store
      ? { DATA_DIR: store.dataDirs[side] }
      : { SEED_DEMO_DATA: 'true', DATA_DIR: 'memory://' }),
    ...(PERF ? { NODE_OPTIONS: PERF_NODE_OPTIONS } : {}),
    ...envList(process.env[side === 'current' ? 'BENCH_CURRENT_ENV' : 'BENCH_BASELINE_ENV']),
  });
  const current = await startServerProcess(env('current'), roots.current);
  const baseline = await startServerProcess(env('baseline'), BASELINE).catch(
    async (error: unknown) => {
      await current.stop();
      throw error;
    },
  );
  const servers = { current, baseline };
  const clients = { current: new JsonClient(current.url), baseline: new JsonClient(baseline.url) };
  const perfs = PERF ? SIDES.map((s) => startPerf(servers[s].pid, join(dir, `${s}.data`))) : [];
  const loadStart = loadavg()[0];
  const spent: Record<Side, Map<string, number>> = { current: new Map(), baseline: new Map() };
  const sent: Record<Side, number> = { current: 0, baseline: 0 };
  let seq = 0;
  try {
    const results = await interleavedRounds({
      modes: SIDES,
      levels: LEVELS,
      rounds: ROUNDS,
      requests: REQUESTS,
      meter: (side) => {
        const before = threadCpu(servers[side].pid);
        return Promise.resolve(() => {
          let run = 0;
          for (const [key, ms] of threadCpu(servers[side].pid)) {
            const delta = ms - (before.get(key) ?? 0);
            spent[side].set(key, (spent[side].get(key) ?? 0) + delta);
            run += delta;
          }
          return Promise.resolve(run); // the run's server CPU ms: cost per request per round
        });
      },
      request: async (side) => {
        const i = seq++;
        const body = store
          ? loadRequest(store.traffic, CALLS ? 'calls' : 'chunks', side, 8, sent[side])
          : CALLS
            ? demoAliceCallBody(side, i)
            : demoAliceBody(ROUTE, i);
        sent[side]++;
        const answer = await clients[side].post<{ meta?: { partial?: boolean } }>(
          `/${ROUTE}`,
          body,
        );
        if (answer.status !== 200) {
          throw new Error(`${side}: HTTP ${answer.status}`);
        }
        return answer.body.meta?.partial === true;
      },
    });
    await Promise.all(perfs.map((p) => p.stop()));
    const modules = PERF
      ? SIDES.map((s) =>
          perfModules(join(dir, `${s}.data`), servers[s].pid, sent[s], Object.values(roots)),
        )
      : [];
    const table = PERF
      ? [...new Set([...modules[0].keys(), ...modules[1].keys()])]
          .map((module) => {
            const [c, b] = modules.map((m) => m.get(module) ?? 0);
            return { module, current: round3(c), baseline: round3(b), delta: round3(c - b) };
          })
          .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta))
          .slice(0, TOP)
      : undefined;
    printJson({
      bench: 'cpu-split',
      baseline: BASELINE,
      route: ROUTE,
      shape: CALLS ? 'calls' : 'chunks',
      rounds: ROUNDS,
      load_average: { start: round3(loadStart), end: round3(loadavg()[0]) },
      results,
      throughput_current_over_baseline: throughputRatio(results, 'current', 'baseline', LEVELS),
      rounds_current_over_baseline: pairedRatios(results, 'current', 'baseline', LEVELS),
      // Warm-ups included, every level together.
      cpu_ms_per_request: {
        current: perRequest(spent.current, sent.current),
        baseline: perRequest(spent.baseline, sent.baseline),
      },
      ...(table ? { main_thread_ms_per_request_by_module: table } : {}),
      ...(PERF_FUNCTIONS
        ? functionTables(
            SIDES.map((s) =>
              perfFunctions(join(dir, `${s}.data`), servers[s].pid, sent[s], Object.values(roots)),
            ) as [FunctionProfile, FunctionProfile],
            TOP * 2,
          )
        : {}),
    });
  } finally {
    Object.values(clients).forEach((c) => c.close());
    await Promise.all(perfs.map((p) => p.stop()));
    await Promise.all([current.stop(), baseline.stop()]);
    rmSync(dir, { recursive: true, force: true });
    if (PERF) {
      // Node's JIT symbol maps (--perf-basic-prof), one per server process.
      SIDES.forEach((s) => rmSync(`/tmp/perf-${servers[s].pid}.map`, { force: true }));
    }
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
