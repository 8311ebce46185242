/**
 * Where row-level security costs on Postgres, statement by statement: three servers of this
 * checkout on the demo store, each in its own database, serve `/context` (contact lookup and
 * hybrid search) in interleaved rounds at concurrency 1:
 * - `on`: the default, as a role that owns the tables without BYPASSRLS;
 * - `owner_off`: DATABASE_ROW_SECURITY=false as that owner (the policies still run, FORCEd,
 *   and pass every row);
 * - `bypass`: DATABASE_ROW_SECURITY=false as a BYPASSRLS role: no scope statement, no policy.
 * Besides each server's latency and throughput it prints, per hot statement and server, the
 * server's execution and planning time per call and how often it planned (pg_stat_statements),
 * which a loaded box inflates far less than a request's wall time.
 *
 * The server needs pg_stat_statements preloaded (a throwaway one: docs/benchmarks.md):
 *   DATABASE_URL=postgres://postgres@…/postgres npm run bench:row-security-statements
 * BENCH_ROUNDS (10), BENCH_REQUESTS (30 per round); BENCH_BOUND_LOCATION sends every request
 * with an API key bound to that location (the demo's is loc_demo_downtown).
 */
import { loadavg } from 'node:os';

import { Client } from 'pg';

import { generateApiKey } from '../src/config/api-key-entries';
import { DEMO_ALICE_PHRASES } from './support/demo-phrases';
import { JsonClient } from './support/http-client';
import { interleavedRounds } from './support/interleaved-rounds';
import { startServerProcess } from './support/server-process';
import { printJson, runConcurrent } from './support/stats';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 30);
const DATABASE_URL = process.env.DATABASE_URL;
const BOUND = process.env.BENCH_BOUND_LOCATION;
const KEY = BOUND ? generateApiKey('bench', [BOUND]) : undefined;

type Mode = 'on' | 'owner_off' | 'bypass';
const MODES: Mode[] = ['on', 'owner_off', 'bypass'];
const OWNER = 'cb_bench_owner';
const SETUP: Record<Mode, { role: string; bypass: boolean; env: Record<string, string> }> = {
  on: { role: OWNER, bypass: false, env: {} },
  owner_off: { role: OWNER, bypass: false, env: { DATABASE_ROW_SECURITY: 'false' } },
  bypass: { role: `${OWNER}_bypassrls`, bypass: true, env: { DATABASE_ROW_SECURITY: 'false' } },
};
const databaseName = (mode: Mode) => `cb_bench_rls_${mode}`;

/** The hot statements by what their text holds (the scope statement only runs when on). */
const STATEMENTS: Record<string, string> = {
  hybrid_search: `'dense' AS list`,
  contact_lookup: 'FROM podium_contacts WHERE contact_uid',
  scope: `set_config('app.locations'`,
};

/** A database of its own, owned by the mode's role, connected to as it. */
async function databaseUrl(admin: Client, mode: Mode): Promise<string> {
  const { role, bypass } = SETUP[mode];
  const name = databaseName(mode);
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${role}')
    THEN CREATE ROLE ${role} LOGIN NOSUPERUSER; END IF; END $$;
    ALTER ROLE ${role} ${bypass ? 'BYPASSRLS' : 'NOBYPASSRLS'}`);
  await admin.query(`CREATE DATABASE ${name} OWNER ${role}`);
  const url = new URL(DATABASE_URL as string);
  url.pathname = `/${name}`;
  const owner = new Client({ connectionString: url.toString() });
  await owner.connect();
  await owner.query(`CREATE EXTENSION IF NOT EXISTS vector; GRANT ALL ON SCHEMA public TO ${role}`);
  await owner.end();
  url.username = role;
  return url.toString();
}

/** Per statement and mode: server ms per call executing and planning, and plans per call. */
async function statementCosts(admin: Client) {
  const { rows } = await admin.query<{
    datname: string;
    query: string | null;
    calls: string;
    exec_ms: number;
    plan_ms: number;
    plans: string;
  }>(`SELECT d.datname, s.query, s.calls, s.total_exec_time AS exec_ms,
        s.total_plan_time AS plan_ms, s.plans
      FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
      WHERE d.datname LIKE 'cb_bench_rls_%' AND s.calls > 0`);
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  const costs: Record<string, Record<string, unknown>> = {};
  for (const [label, marker] of Object.entries(STATEMENTS)) {
    for (const mode of MODES) {
      // One text can hold several entries (the statement analysed again): add them up.
      const matching = rows.filter(
        (r) => r.datname === databaseName(mode) && (r.query ?? '').includes(marker),
      );
      const calls = matching.reduce((n, r) => n + Number(r.calls), 0);
      if (calls > 0) {
        const sum = (pick: (r: (typeof rows)[number]) => number) =>
          matching.reduce((n, r) => n + pick(r), 0);
        (costs[label] ??= {})[mode] = {
          calls,
          exec_ms: r3(sum((r) => r.exec_ms) / calls),
          plan_ms: r3(sum((r) => r.plan_ms) / calls),
          plans_per_call: r3(sum((r) => Number(r.plans)) / calls),
        };
      }
    }
  }
  return costs;
}

async function main() {
  if (!DATABASE_URL) {
    throw new Error('DATABASE_URL: a Postgres server with pg_stat_statements preloaded');
  }
  delete process.env.DATABASE_URL; // the servers take theirs from their own env
  const admin = new Client({ connectionString: DATABASE_URL });
  await admin.connect();
  await admin.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
  await admin.query(`ALTER SYSTEM SET pg_stat_statements.track_planning = on`);
  await admin.query('SELECT pg_reload_conf()');
  const keyEnv: Record<string, string> = KEY
    ? { API_KEYS: KEY.line, RATE_LIMIT_PER_KEY_PER_MINUTE: '0' }
    : {};
  const servers: Partial<Record<Mode, Awaited<ReturnType<typeof startServerProcess>>>> = {};
  const clients: Partial<Record<Mode, JsonClient>> = {};
  try {
    for (const mode of MODES) {
      const url = await databaseUrl(admin, mode);
      const env = { SEED_DEMO_DATA: 'true', DATABASE_URL: url, ...SETUP[mode].env, ...keyEnv };
      const server = await startServerProcess(env);
      servers[mode] = server;
      clients[mode] = new JsonClient(server.url, 8, KEY ? { 'x-api-key': KEY.key } : {});
    }
    let seq = 0;
    const request = async (mode: Mode) => {
      const i = seq++;
      const transcript = `${DEMO_ALICE_PHRASES[i % DEMO_ALICE_PHRASES.length]} (ref ${i})`;
      const body = { transcript, contact_uid: 'ctc_demo_alice' };
      const answer = await (clients[mode] as JsonClient).post<{ meta?: { partial?: boolean } }>(
        '/context',
        body,
      );
      if (answer.status !== 200) {
        throw new Error(`${mode}: HTTP ${answer.status}`);
      }
      return answer.body.meta?.partial === true;
    };
    // Every pooled connection plans its statements a few times before it settles on a
    // cached plan (or never does): warm them all up, then count from a clean slate.
    for (const mode of MODES) {
      await runConcurrent(64, 8, async () => void (await request(mode)));
    }
    await admin.query('SELECT pg_stat_statements_reset()');
    const results = await interleavedRounds({
      modes: MODES,
      levels: [1],
      rounds: ROUNDS,
      requests: REQUESTS,
      request,
    });
    printJson({
      bench: 'row-security-statements',
      rounds: ROUNDS,
      bound_location: BOUND ?? null,
      load_average: loadavg().map((l) => Math.round(l * 100) / 100),
      results,
      statements: await statementCosts(admin),
    });
  } finally {
    Object.values(clients).forEach((c) => c.close());
    await Promise.all(Object.values(servers).map((s) => s.stop()));
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
