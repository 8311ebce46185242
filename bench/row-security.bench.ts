/**
 * Row-level security's cost on the hot statement, without HTTP or the embedder in the way:
 * the store's hybrid search (one statement per /context turn) with DATABASE_ROW_SECURITY off
 * and on, in interleaved order, for four callers: off, unbound; off with the service's own
 * location filter (a bound key today); on, unbound (every location); on, bound to one
 * location (the filter and the policies). Two shapes: a contact's history (/context) and a
 * search across contacts (/search without a contact). On a server both clients share one
 * database (owned by BENCH_DATABASE_ROLE: a superuser escapes the policies); PGlite is one
 * session per store, so it compares two stores seeded alike, whose HNSW graphs differ (the
 * cross-contact shape walks them; a contact's history is read exactly). Besides wall time it
 * reports CPU time (a loaded box inflates it far less): this process's on PGlite, each
 * client's own server backend's on Postgres (the server must run on this machine).
 *
 *   npm run bench:row-security   # BENCH_ITERATIONS (300), BENCH_CONTACTS (200), BENCH_SEED (36),
 *                                # BENCH_ENGINES (pglite,postgres)
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';

import { Database, type DatabaseScope, withDatabaseScope } from '@app/database';
import { type HybridQuery, PgVectorStore, type VectorRecord } from '@app/vector';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';

import { prng } from './support/prng';
import { taskCpuMs } from './support/proc-cpu';
import { printJson, summarize } from './support/stats';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 200);
const SEED = Number(process.env.BENCH_SEED ?? 36);
const WINDOWS_PER_CONTACT = 20;
const DIMENSION = 512;
const ROLE = process.env.BENCH_DATABASE_ROLE;
const WORDS = Array.from({ length: 600 }, (_, i) => `w${(i * 7919) % 10007}`);

type Mode = 'off' | 'off/filtered' | 'on/unbound' | 'on/bound';
const MODES: Mode[] = ['off', 'off/filtered', 'on/unbound', 'on/bound'];
const BOUND: DatabaseScope = { kind: 'locations', locations: ['loc_0'] };

function corpus(random: () => number): VectorRecord<'conversations'>[] {
  const vector = () => Array.from({ length: DIMENSION }, () => random() - 0.5);
  const text = () => Array.from({ length: 40 }, () => WORDS[Math.floor(random() * 600)]).join(' ');
  return Array.from({ length: CONTACTS * WINDOWS_PER_CONTACT }, (_, i) => {
    const contact = i % CONTACTS;
    return {
      id: randomUUID(),
      content: text(),
      embedding: vector(),
      payload: {
        contact_uid: `ctc_${contact}`,
        location_uid: `loc_${contact % 2}`,
        conversation_uid: `conv_${contact}`,
        channel: 'sms',
        occurred_at: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      },
    };
  });
}

/** A database on the server owned by ROLE (created without superuser or BYPASSRLS). */
async function ownedUrl(name: string): Promise<string> {
  const admin = new Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${ROLE}')
    THEN CREATE ROLE ${ROLE} LOGIN NOSUPERUSER NOBYPASSRLS; END IF; END $$`);
  await admin.query(`CREATE DATABASE ${name} OWNER ${ROLE}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL as string);
  url.pathname = `/${name}`;
  const owner = new Client({ connectionString: url.toString() });
  await owner.connect();
  await owner.query(`CREATE EXTENSION IF NOT EXISTS vector; GRANT ALL ON SCHEMA public TO ${ROLE}`);
  await owner.end();
  url.username = ROLE as string;
  return url.toString();
}

async function measure(engine: 'pglite' | 'postgres') {
  const random = prng(SEED);
  const records = corpus(random);
  const serverUrl = engine === 'postgres' ? await ownedUrl('cb_bench_rls') : undefined;
  const open = async (rowSecurity: boolean, seed: boolean) => {
    const databaseUrl = serverUrl;
    // Seeding 512-d windows on a loaded box can outlast the default statement timeout.
    // One server connection each: its backend's CPU time is that client's statements'.
    const database = new Database({
      dataDir: 'memory://',
      databaseUrl,
      rowSecurity,
      statementTimeoutMs: 300_000,
      poolMax: 1,
    });
    await database.open(DIMENSION);
    const store = new PgVectorStore(database);
    for (let i = 0; seed && i < records.length; i += 100) {
      await store.upsert('conversations', records.slice(i, i + 100));
    }
    return { database, store };
  };
  const on = await open(true, true);
  const off = await open(false, engine === 'pglite');
  // On a server every mode has its own connection (they share the database); PGlite's
  // stores are in memory, so a store's two modes share it.
  const stores: Record<Mode, Awaited<ReturnType<typeof open>>> = engine === 'postgres'
    ? {
        off,
        'off/filtered': await open(false, false),
        'on/unbound': on,
        'on/bound': await open(true, false),
      }
    : { off, 'off/filtered': off, 'on/unbound': on, 'on/bound': on };
  const queries = Array.from({ length: ITERATIONS }, (_, i) => ({
    embedding: records[(i * 31) % records.length].embedding,
    text: Array.from({ length: 6 }, () => WORDS[Math.floor(random() * 600)]).join(' '),
    contact: `ctc_${(i * 2) % CONTACTS}`, // an even contact: location loc_0
  }));
  const run = (mode: Mode, shape: 'contact' | 'across', q: (typeof queries)[number]) => {
    const bound = mode === 'on/bound';
    const filtered = bound || mode === 'off/filtered';
    const query: HybridQuery = {
      embedding: q.embedding,
      text: q.text,
      topK: 10,
      filter: {
        ...(shape === 'contact' ? { contact_uid: q.contact } : {}),
        ...(filtered ? { location_uids: ['loc_0'] } : {}),
      },
    };
    const { store } = stores[mode];
    const search = () => store.hybridSearch('conversations', query);
    return bound ? withDatabaseScope(BOUND, search) : search();
  };
  const results: Record<string, ReturnType<typeof summarize>> = {};
  const ratios: Record<string, Record<string, number>> = {};
  // CPU time, which a loaded box inflates far less than wall time: PGlite's is this
  // process's (its worker included), per search; a server's is each mode's backend's.
  const cpu: Record<string, number> = {};
  const backends = engine === 'postgres' ? await backendPids(stores) : undefined;
  try {
    for (const shape of ['contact', 'across'] as const) {
      const samples = Object.fromEntries(MODES.map((m) => [m, [] as number[]])) as Record<
        Mode,
        number[]
      >;
      const cpuSamples = Object.fromEntries(MODES.map((m) => [m, [] as number[]])) as Record<
        Mode,
        number[]
      >;
      const serverBefore = backends && MODES.map((m) => taskCpuMs(backends[m]));
      for (const [i, q] of queries.entries()) {
        // Rotated order: no mode always runs first (cold) or last.
        for (let k = 0; k < MODES.length; k++) {
          const mode = MODES[(i + k) % MODES.length];
          const cpuStart = process.cpuUsage();
          const started = performance.now();
          await run(mode, shape, q);
          samples[mode].push(performance.now() - started);
          const used = process.cpuUsage(cpuStart);
          cpuSamples[mode].push((used.user + used.system) / 1000);
        }
      }
      for (const [m, mode] of MODES.entries()) {
        results[`${shape}/${mode}`] = summarize(samples[mode]);
        cpu[`${shape}/${mode}`] = serverBefore
          ? round3((taskCpuMs(backends[mode]) - serverBefore[m]) / queries.length)
          : summarize(cpuSamples[mode]).p50;
      }
      const ratio = (a: Mode, b: Mode) =>
        Math.round((results[`${shape}/${a}`].p50 / results[`${shape}/${b}`].p50) * 1000) / 1000;
      const cpuRatio = (a: Mode, b: Mode) => round3(cpu[`${shape}/${a}`] / cpu[`${shape}/${b}`]);
      ratios[shape] = {
        unbound_on_over_off: ratio('on/unbound', 'off'),
        bound_on_over_off_filtered: ratio('on/bound', 'off/filtered'),
        cpu_unbound_on_over_off: cpuRatio('on/unbound', 'off'),
        cpu_bound_on_over_off_filtered: cpuRatio('on/bound', 'off/filtered'),
      };
    }
  } finally {
    for (const { database } of new Set(Object.values(stores))) {
      await database.close();
    }
  }
  return {
    engine,
    windows: records.length,
    load_average: loadavg().map(round3),
    cpu_ms: {
      what: engine === 'postgres' ? 'server backend, mean per search' : 'this process, p50',
      ...cpu,
    },
    p50_ratios: ratios,
    results,
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** Each mode's server backend (one connection per client). */
async function backendPids(stores: Record<Mode, { database: Database }>) {
  const pids = {} as Record<Mode, number>;
  for (const mode of MODES) {
    const [row] = await stores[mode].database.query<{ pid: number }>(
      'SELECT pg_backend_pid() AS pid',
    );
    pids[mode] = row.pid;
  }
  return pids;
}

async function main() {
  Logger.overrideLogger(['warn', 'error']); // stdout is the JSON report
  // BENCH_ENGINES (e.g. `postgres`) runs a subset.
  const engines = (
    process.env.DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const)
  ).filter((e) => (process.env.BENCH_ENGINES ?? e).split(',').includes(e));
  if (process.env.DATABASE_URL && !ROLE) {
    throw new Error('BENCH_DATABASE_ROLE: row-level security never applies to a superuser');
  }
  const runs = [];
  for (const engine of engines) {
    runs.push(await measure(engine));
  }
  printJson({ bench: 'row-security', seed: SEED, iterations: ITERATIONS, runs });
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
