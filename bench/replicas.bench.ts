/**
 * Scale-out on one Postgres: 1 replica ingesting one export, then 2 replicas each ingesting a
 * disjoint export at the same time, with a loopback embedder (no model cost, so the store and
 * its coordination are what is measured). Reports messages/s (combined for 2), the ingest
 * requests' latency, and `pg_stat_activity` sampled every 20 ms during the ingest: the share
 * of samples in which some session of the database waited on a heavyweight lock (`Lock`
 * wait events: row, relation, transaction or advisory locks), and on an advisory lock.
 *
 *   TEST_DATABASE_URL=postgres://… npm run bench:replicas
 *   bash scripts/pg-test-server.sh run -- npm run bench:replicas
 *   BENCH_CONVERSATIONS (150 per export), BENCH_TURNS (8), BENCH_BATCH (200 records a request)
 */
import { Client } from 'pg';

import { startFakeOpenAi } from '../test/fakes/openai-server';
import { type AppProcess, startAppProcess } from '../test/support/app-process';
import { createServerDatabase } from '../test/support/postgres';
import { printJson, summarize } from './support/stats';

const SAMPLE_MS = 20;

interface Sampling {
  samples: number;
  lockWait: number;
  advisoryWait: number;
  waitEvents: Record<string, number>;
}

function exportOf(tag: string, conversations: number, turns: number) {
  const base = Date.parse('2026-03-01T09:00:00Z');
  return Array.from({ length: conversations * turns }, (_, i) => {
    const c = Math.floor(i / turns);
    const t = i % turns;
    return {
      conversation_uid: `${tag}-conv-${c}`,
      contact_uid: `${tag}-ctc-${c % 25}`,
      channel: 'sms',
      occurred_at: new Date(base + (c * 100 + t) * 60_000).toISOString(),
      sender: t % 2 ? 'agent' : 'customer',
      text: `${tag} order ${c} turn ${t}: the sofa delivery window and the fabric swatches`,
    };
  });
}

/** Samples pg_stat_activity of `database` until `stop` resolves. */
async function sample(url: string, database: string, stop: Promise<void>): Promise<Sampling> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const result: Sampling = { samples: 0, lockWait: 0, advisoryWait: 0, waitEvents: {} };
  let done = false;
  void stop.then(() => (done = true));
  try {
    while (!done) {
      const { rows } = await client.query<{ type: string | null; event: string | null }>(
        `SELECT wait_event_type AS type, wait_event AS event FROM pg_stat_activity
         WHERE datname = $1 AND pid <> pg_backend_pid() AND state = 'active'`,
        [database],
      );
      result.samples++;
      if (rows.some((r) => r.type === 'Lock')) {
        result.lockWait++;
      }
      if (rows.some((r) => r.type === 'Lock' && r.event === 'advisory')) {
        result.advisoryWait++;
      }
      for (const r of rows.filter((row) => row.type)) {
        const key = `${r.type}:${r.event}`;
        result.waitEvents[key] = (result.waitEvents[key] ?? 0) + 1;
      }
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  } finally {
    await client.end();
  }
  return result;
}

async function ingest(app: AppProcess, records: unknown[], batch: number, latencies: number[]) {
  for (let i = 0; i < records.length; i += batch) {
    const started = performance.now();
    const response = await fetch(`${app.url}/ingest/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(records.slice(i, i + batch)),
    });
    await response.text();
    if (!response.ok) {
      throw new Error(`ingest answered ${response.status}`);
    }
    latencies.push(performance.now() - started);
  }
}

async function run(replicaCount: number, openaiUrl: string) {
  const conversations = Number(process.env.BENCH_CONVERSATIONS ?? 150);
  const turns = Number(process.env.BENCH_TURNS ?? 8);
  const batch = Number(process.env.BENCH_BATCH ?? 200);
  const database = await createServerDatabase();
  const replicas: AppProcess[] = [];
  try {
    const env = {
      DATABASE_URL: database.url,
      EMBEDDING_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-bench',
      OPENAI_BASE_URL: openaiUrl,
    };
    replicas.push(await startAppProcess(env)); // the first migrates
    for (let i = 1; i < replicaCount; i++) {
      replicas.push(await startAppProcess(env));
    }
    // A warm-up export per replica (connections, JIT), then the measured ones.
    await Promise.all(
      replicas.map((r, i) => ingest(r, exportOf(`warm${i}`, 10, turns), batch, [])),
    );
    const exports = replicas.map((_, i) => exportOf(`run${i}`, conversations, turns));
    const latencies: number[] = [];
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const sampling = sample(database.url, new URL(database.url).pathname.slice(1), stopped);
    const started = performance.now();
    await Promise.all(replicas.map((r, i) => ingest(r, exports[i], batch, latencies)));
    const wallS = (performance.now() - started) / 1000;
    stop();
    const s = await sampling;
    const messages = exports.reduce((n, e) => n + e.length, 0);
    const pct = (n: number) => Math.round((n / Math.max(1, s.samples)) * 10_000) / 100;
    return {
      replicas: replicaCount,
      messages,
      wall_s: Math.round(wallS * 100) / 100,
      messages_per_s: Math.round(messages / wallS),
      request_ms: summarize(latencies),
      pg_stat_activity: {
        samples: s.samples,
        lock_wait_pct: pct(s.lockWait),
        advisory_wait_pct: pct(s.advisoryWait),
        wait_events: s.waitEvents,
      },
    };
  } finally {
    await Promise.all(replicas.map((r) => r.stop()));
    await database.drop();
  }
}

async function main() {
  const openai = await startFakeOpenAi();
  try {
    const one = await run(1, openai.baseURL);
    const two = await run(2, openai.baseURL);
    printJson({
      bench: 'replicas',
      one,
      two,
      combined_vs_one: Math.round((two.messages_per_s / one.messages_per_s) * 100) / 100,
    });
  } finally {
    await openai.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
