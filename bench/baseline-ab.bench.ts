/**
 * The hot path against a baseline: `/context` and `/search` on this checkout's server and on
 * BENCH_BASELINE_ROOT's (another checkout with its own node_modules, e.g. a worktree of an
 * older commit), on the demo store, in interleaved rounds at concurrency 1 and 8 in rotating
 * order (see `roundOrder`), so the box's noise falls on both alike. Embedded PGlite
 * always; with DATABASE_URL also that Postgres server (each checkout in its own database).
 * Requests differ in text, so every one embeds.
 *
 *   BENCH_BASELINE_ROOT=/tmp/wt-base npm run bench:baseline   # BENCH_ROUNDS (10), BENCH_REQUESTS (30)
 *
 * One checkout against itself under two configurations: BENCH_CURRENT_ENV and
 * BENCH_BASELINE_ENV add `NAME=value,…` to each side's env (e.g. BENCH_BASELINE_ROOT=. and
 * BENCH_BASELINE_ENV=DATABASE_ROW_SECURITY=false). BENCH_BOUND_LOCATION sends every request
 * with an API key bound to that location (the demo's is loc_demo_downtown). BENCH_DATABASE_ROLE
 * makes each Postgres database owned by that role (created, no superuser, no BYPASSRLS) and
 * connects as it: row-level security never applies to the superuser a test server hands out.
 * BENCH_BASELINE_BYPASSRLS=true gives the baseline side its own role with BYPASSRLS instead
 * (`<role>_bypassrls`), to whom no policy applies: with DATABASE_ROW_SECURITY=false in its env
 * that is row-level security entirely off (no scope statement, no policy evaluated), where the
 * owner with the setting off still runs every policy (they pass every row).
 * BENCH_NODE in a side's env runs that side's server on another Node binary
 * (BENCH_BASELINE_ROOT=. BENCH_BASELINE_ENV=BENCH_NODE=/usr/bin/node: Node 24 against 20).
 *
 * Besides throughput (the ratio of means), each comparison gives the median of the rounds'
 * own ratios (each round runs both sides back to back) with their range, and the ratio of
 * server CPU time per request: the server process's threads (the PGlite and embedding
 * workers included) plus, on Postgres, its database's backends. CPU time is what a loaded
 * box inflates least; the servers and the database must run on this machine (/proc).
 */
import { loadavg } from 'node:os';

import { Client } from 'pg';

import { generateApiKey } from '../src/config/api-key-entries';
import { demoAliceBody } from './support/demo-phrases';
import { JsonClient } from './support/http-client';
import {
  interleavedRounds,
  pairedRatios,
  type RunMeter,
  throughputRatio,
} from './support/interleaved-rounds';
import { processCpuMs, taskCpuMs } from './support/proc-cpu';
import { envList, startServerProcess } from './support/server-process';
import { printJson } from './support/stats';

// Short runs in many rounds: the two sides alternate every few seconds, so the box's load
// falls on both alike (as many requests as 3 rounds of 100 would send).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const BASELINE = process.env.BENCH_BASELINE_ROOT;
const DATABASE_URL = process.env.DATABASE_URL;
const LEVELS = [1, 8];
/** Times a shed (503) request is sent again before the run fails. */
const MAX_RETRIES = 20;
const ROLE = process.env.BENCH_DATABASE_ROLE;
const BYPASS = process.env.BENCH_BASELINE_BYPASSRLS === 'true';
/** Each side's role (see the header): the baseline's may bypass row-level security. */
const ROLES: Record<'current' | 'baseline', string | undefined> = {
  current: ROLE,
  baseline: BYPASS ? `${ROLE ?? 'cb_bench_owner'}_bypassrls` : ROLE,
};
const BOUND = process.env.BENCH_BOUND_LOCATION;
const KEY = BOUND ? generateApiKey('bench', [BOUND]) : undefined;

// Load from one key is the point here, not something to throttle.
const KEY_ENV: Record<string, string> = KEY
  ? { API_KEYS: KEY.line, RATE_LIMIT_PER_KEY_PER_MINUTE: '0' }
  : {};
const EXTRA_ENV: Record<'current' | 'baseline', Record<string, string>> = {
  current: { ...KEY_ENV, ...envList(process.env.BENCH_CURRENT_ENV) },
  baseline: { ...KEY_ENV, ...envList(process.env.BENCH_BASELINE_ENV) },
};

type Checkout = 'current' | 'baseline';
type Mode = `${Checkout}/${'context' | 'search'}`;
const MODES: Mode[] = ['current/context', 'baseline/context', 'current/search', 'baseline/search'];

/** The store env of one checkout's server: in-memory PGlite, or its own database. */
async function storeEnv(
  engine: 'pglite' | 'postgres',
  checkout: Checkout,
): Promise<Record<string, string>> {
  if (engine === 'pglite') {
    return { DATA_DIR: 'memory://' };
  }
  const admin = new Client({ connectionString: DATABASE_URL });
  await admin.connect();
  const name = databaseName(checkout);
  const role = ROLES[checkout];
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  if (role) {
    // ALTER as well: a role left by an older run keeps the attribute this run asks for.
    const bypass = role === ROLE ? 'NOBYPASSRLS' : 'BYPASSRLS';
    await admin.query(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}')
      THEN CREATE ROLE ${role} LOGIN NOSUPERUSER; END IF; END $$;
      ALTER ROLE ${role} ${bypass}`);
  }
  await admin.query(`CREATE DATABASE ${name}${role ? ` OWNER ${role}` : ''}`);
  await admin.end();
  const url = new URL(DATABASE_URL as string);
  url.pathname = `/${name}`;
  if (role) {
    // pgvector is installed by a superuser; the role owns the rest.
    const owner = new Client({ connectionString: url.toString() });
    await owner.connect();
    await owner.query(
      `CREATE EXTENSION IF NOT EXISTS vector; GRANT ALL ON SCHEMA public TO ${role}`,
    );
    await owner.end();
    url.username = role;
    url.password = '';
  }
  return { DATABASE_URL: url.toString() };
}

/** A checkout's database on the server (see {@link storeEnv}). */
const databaseName = (checkout: Checkout) => `cb_bench_ab_${checkout}`;

/**
 * Server CPU time of a run: the server process's threads, and on Postgres the backends of its
 * database (a backend that began during the run counts whole; one that ended is missed).
 */
function cpuMeter(
  engine: 'pglite' | 'postgres',
  pids: Record<Checkout, number>,
  admin?: Client,
  /** Adds each run's two parts here, per mode (warm-ups included), to tell them apart. */
  split?: Partial<Record<Mode, { server: number; database: number }>>,
): RunMeter<Mode> {
  const backends = async (checkout: Checkout) => {
    if (engine === 'pglite' || !admin) {
      return new Map<number, number>();
    }
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1',
      [databaseName(checkout)],
    );
    return new Map(rows.map((r) => [r.pid, taskCpuMs(r.pid)]));
  };
  return async (mode) => {
    const checkout = mode.split('/')[0] as Checkout;
    const server = processCpuMs(pids[checkout]);
    const before = await backends(checkout);
    return async () => {
      const spent = processCpuMs(pids[checkout]) - server;
      const after = await backends(checkout);
      let database = 0;
      for (const [pid, ms] of after) {
        database += ms - (before.get(pid) ?? 0);
      }
      const parts = (split ?? {})[mode];
      if (split) {
        split[mode] = {
          server: (parts?.server ?? 0) + spent,
          database: (parts?.database ?? 0) + database,
        };
      }
      return spent + database;
    };
  };
}

async function measure(engine: 'pglite' | 'postgres', baselineRoot: string) {
  const seed = { SEED_DEMO_DATA: 'true' };
  const current = await startServerProcess({
    ...seed,
    ...(await storeEnv(engine, 'current')),
    ...EXTRA_ENV.current,
  });
  // A baseline that never becomes ready must not leave the current server running.
  const baseline = await startServerProcess(
    { ...seed, ...(await storeEnv(engine, 'baseline')), ...EXTRA_ENV.baseline },
    baselineRoot,
  ).catch(async (error: unknown) => {
    await current.stop();
    throw error;
  });
  const headers: Record<string, string> = KEY ? { 'x-api-key': KEY.key } : {};
  const clients: Record<Checkout, JsonClient> = {
    current: new JsonClient(current.url, 64, headers),
    baseline: new JsonClient(baseline.url, 64, headers),
  };
  let seq = 0;
  const refused: Partial<Record<Mode, number>> = {};
  const sent: Partial<Record<Mode, number>> = {};
  const split: Partial<Record<Mode, { server: number; database: number }>> = {};
  const admin = engine === 'postgres' ? new Client({ connectionString: DATABASE_URL }) : undefined;
  await admin?.connect();
  try {
    const results = await interleavedRounds({
      modes: MODES,
      levels: LEVELS,
      rounds: ROUNDS,
      requests: REQUESTS,
      meter: cpuMeter(engine, { current: current.pid, baseline: baseline.pid }, admin, split),
      request: async (mode) => {
        const [checkout, route] = mode.split('/') as [Checkout, 'context' | 'search'];
        const i = seq++;
        sent[mode] = (sent[mode] ?? 0) + 1;
        const body = demoAliceBody(route, i);
        let answer = await clients[checkout].post<{ meta?: { partial?: boolean } }>(
          `/${route}`,
          body,
        );
        // A loaded box makes a server shed load (503 overloaded): count it, send it again.
        for (let retry = 0; answer.status === 503 && retry < MAX_RETRIES; retry++) {
          refused[mode] = (refused[mode] ?? 0) + 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
          answer = await clients[checkout].post(`/${route}`, body);
        }
        if (answer.status !== 200) {
          throw new Error(`${mode}: HTTP ${answer.status}`);
        }
        return answer.body.meta?.partial === true;
      },
    });
    return {
      engine,
      load_average: loadavg().map((l) => Math.round(l * 100) / 100),
      refused_503: refused,
      results,
      throughput_current_over_baseline: {
        context: throughputRatio(results, 'current/context', 'baseline/context', LEVELS),
        search: throughputRatio(results, 'current/search', 'baseline/search', LEVELS),
      },
      // Per round (median, range) and server CPU per request (`cost`, the other way up:
      // above 1 means the current side spends more).
      rounds_current_over_baseline: {
        context: pairedRatios(results, 'current/context', 'baseline/context', LEVELS),
        search: pairedRatios(results, 'current/search', 'baseline/search', LEVELS),
      },
      // Where each mode's CPU per request goes (ms, every level and warm-up together): the
      // server process's threads, and its database's backends (0 on PGlite, in-process).
      cpu_ms_per_request: Object.fromEntries(
        MODES.map((mode) => {
          const n = sent[mode] ?? 1;
          const r = (x = 0) => Math.round((x / n) * 1000) / 1000;
          return [mode, { server: r(split[mode]?.server), database: r(split[mode]?.database) }];
        }),
      ),
    };
  } finally {
    await admin?.end();
    Object.values(clients).forEach((c) => c.close());
    await Promise.all([current.stop(), baseline.stop()]);
  }
}

async function main() {
  if (!BASELINE) {
    throw new Error('BENCH_BASELINE_ROOT: a checkout of the baseline with its own node_modules');
  }
  if (BYPASS && !ROLE) {
    // The current side would connect as the test server's superuser: nothing to compare.
    throw new Error('BENCH_BASELINE_BYPASSRLS needs BENCH_DATABASE_ROLE (a role without it)');
  }
  // Servers inherit process.env: a DATABASE_URL left there would take PGlite's place.
  delete process.env.DATABASE_URL;
  const engines = DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);
  const runs = [];
  for (const engine of engines) {
    runs.push(await measure(engine, BASELINE));
  }
  printJson({
    bench: 'baseline-ab',
    rounds: ROUNDS,
    baseline: BASELINE,
    env: EXTRA_ENV,
    bound_location: BOUND ?? null,
    role: ROLE ?? null,
    baseline_role: ROLES.baseline ?? null,
    runs,
  });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
