/**
 * Row-level security's cost on the hot statement, without HTTP or the embedder in the way:
 * the store's hybrid search (one statement per /context turn) with DATABASE_ROW_SECURITY off
 * and on, in interleaved order, for four callers: off, unbound; off with the service's own
 * location filter (a bound key today); on, unbound (every location); on, bound to one
 * location (the filter and the policies). Two shapes: a contact's history (/context) and a
 * search across contacts (/search without a contact). On a server both clients share one
 * database (owned by BENCH_DATABASE_ROLE: a superuser escapes the policies); PGlite is one
 * session per store, so it compares two stores seeded alike, whose HNSW graphs differ (the
 * cross-contact shape walks them; a contact's history is read exactly).
 *
 *   npm run bench:row-security   # BENCH_ITERATIONS (300), BENCH_CONTACTS (200), BENCH_SEED (36)
 */
import { randomUUID } from 'node:crypto';

import { Database, type DatabaseScope, withDatabaseScope } from '@app/database';
import { type HybridQuery, PgVectorStore, type VectorRecord } from '@app/vector';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';

import { prng } from './support/prng';
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
    const database = new Database({
      dataDir: 'memory://',
      databaseUrl,
      rowSecurity,
      statementTimeoutMs: 300_000,
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
    const store = mode.startsWith('off') ? off.store : on.store;
    const search = () => store.hybridSearch('conversations', query);
    return bound ? withDatabaseScope(BOUND, search) : search();
  };
  const results: Record<string, ReturnType<typeof summarize>> = {};
  const ratios: Record<string, Record<string, number>> = {};
  try {
    for (const shape of ['contact', 'across'] as const) {
      const samples = Object.fromEntries(MODES.map((m) => [m, [] as number[]])) as Record<
        Mode,
        number[]
      >;
      for (const [i, q] of queries.entries()) {
        // Rotated order: no mode always runs first (cold) or last.
        for (let k = 0; k < MODES.length; k++) {
          const mode = MODES[(i + k) % MODES.length];
          const started = performance.now();
          await run(mode, shape, q);
          samples[mode].push(performance.now() - started);
        }
      }
      for (const mode of MODES) {
        results[`${shape}/${mode}`] = summarize(samples[mode]);
      }
      const ratio = (a: Mode, b: Mode) =>
        Math.round((results[`${shape}/${a}`].p50 / results[`${shape}/${b}`].p50) * 1000) / 1000;
      ratios[shape] = {
        unbound_on_over_off: ratio('on/unbound', 'off'),
        bound_on_over_off_filtered: ratio('on/bound', 'off/filtered'),
      };
    }
  } finally {
    await off.database.close();
    await on.database.close();
  }
  return { engine, windows: records.length, p50_ratios: ratios, results };
}

async function main() {
  Logger.overrideLogger(['warn', 'error']); // stdout is the JSON report
  const engines = process.env.DATABASE_URL
    ? (['pglite', 'postgres'] as const)
    : (['pglite'] as const);
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
