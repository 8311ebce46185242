/**
 * A whole organisation's history on the production path: a Postgres store grown in steps
 * (default 10k → 100k → 1M windows) with a Zipf-like spread of contacts (the heaviest owns
 * ~4%: ≥ 40,000 windows at 1M) and SGD dialogue text. Per step, with the service started as
 * in production (its own process) and driven over HTTP:
 *  - the ingest rate a client sees (`POST /ingest/conversations`, every index live);
 *  - /context p50/p99 at c=1 and c=8 for typical contacts, for the heaviest, and /search with
 *    no contact, client-side beside server-side (`meta.elapsed_ms`);
 *  - the first 30 /context calls after readiness; database bytes per window; the HNSW
 *    rebuild (reindex) rate.
 * After the last step: forget the heaviest contact, then a retention sweep of the oldest 10%
 * of the history, each with its longest statement (sampled from pg_stat_activity).
 *
 * Vectors come from a fast deterministic bag-of-words embedder behind an OpenAI-compatible
 * loopback server (512-d by default), so the store and the pipeline are what is measured, not a model.
 * Growth between steps is a bulk load through the service's own parts (see scale-grow.ts).
 *
 *   npm run db:test-server -- run -- npm run bench:scale        # a throwaway server
 *   DATABASE_URL=postgres://… BENCH_SCALE_STEPS=10000,100000 npm run bench:scale
 *   BENCH_SCALE_ENGINE=pglite npm run bench:scale                 # embedded, 10k → 100k
 *   BENCH_SCALE_PROTOCOL=after-load BENCH_SCALE_IDLE_S=600 BENCH_SCALE_PG_LOG=<server log> …
 *     issue 42's protocol instead (Postgres only): grown over HTTP, measured with no pause,
 *     again after an idle period; the slowest 1%'s stages, I/O, autovacuum, bytes per relation.
 *     With BENCH_SCALE_GROWTH=bulk, all but the last BENCH_SCALE_HTTP_SHARE (0.1) of the growth
 *     is a bulk load with every index live (scale-bulk-load.ts), the rest over HTTP: 1M in hours.
 *   BENCH_SCALE_PROTOCOL=bulk-load …  only that loader, to each step: its rate per stretch
 *     (how a window's cost grows with the store) and bytes per window by table and index
 *     (BENCH_SCALE_REINDEX=1: again after REINDEX of the posting, statistics and message tables).
 * A store that already holds more windows than a step skips that step's growth. On PGlite one
 * process holds the data dir at a time, so the bench's own handle closes while the service
 * runs, and statement watching (pg_stat_activity of other sessions) is left out.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startFakeOpenAi } from '../test/fakes/openai-server';
import { measureAfterLoad } from './support/scale-after-load';
import { measureBulkLoad } from './support/scale-bulk-load';
import { bagOfWordsEmbedding, ScaleCorpus } from './support/scale-corpus';
import { ScaleGrower } from './support/scale-grow';
import { measureMaintenance } from './support/scale-maintenance';
import { customerTurns, ScaleProbe, withStatementTotals } from './support/scale-probes';
import { startServerProcess } from './support/server-process';
import { printJson } from './support/stats';

/**
 * The test vectors' size: by default the local embedder's (512), where a vector and its text
 * pass Postgres's 2 KB TOAST threshold as a real model's do (256-d rows stayed under it).
 */
const DIMENSION = Number(process.env.BENCH_SCALE_DIMENSION ?? 512);
const INGEST_BATCH = 4000;

const engine = process.env.BENCH_SCALE_ENGINE === 'pglite' ? 'pglite' : 'postgres';
const steps = (
  process.env.BENCH_SCALE_STEPS ?? (engine === 'pglite' ? '10000,100000' : '10000,100000,1000000')
)
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => n > 0);
const requests = Number(process.env.BENCH_SCALE_REQUESTS ?? 300);
// ~6,800 messages: 600 conversations (2 s at 10k) varied too much between runs of one store.
const ingestConversations = Number(process.env.BENCH_SCALE_INGEST_CONVERSATIONS ?? 1500);
const log = (line: string) => process.stderr.write(`${line}\n`);
const afterLoad = process.env.BENCH_SCALE_PROTOCOL === 'after-load';

async function main() {
  const embedder = await startFakeOpenAi({ dimension: DIMENSION, embed: bagOfWordsEmbedding });
  const env = {
    ...storeEnv(),
    EMBEDDING_PROVIDER: 'openai',
    OPENAI_BASE_URL: embedder.baseURL,
    OPENAI_API_KEY: 'bench',
    EMBEDDING_DIMENSION: String(DIMENSION),
    SEED_DEMO_DATA: 'false',
  };
  const corpus = new ScaleCorpus();
  const grower = new ScaleGrower(corpus, growerEnv(env), engine === 'pglite');
  await grower.open();
  const texts = customerTurns();
  const results: unknown[] = [];
  try {
    if (afterLoad) {
      if (engine === 'pglite') {
        throw new Error(
          'BENCH_SCALE_PROTOCOL=after-load needs Postgres (it watches other sessions)',
        );
      }
      // Issue 42's protocol: grown over HTTP, measured with no pause (scale-after-load.ts).
      for (const target of steps) {
        printJson(await measureAfterLoad(target, grower, corpus, env, texts, DIMENSION, log));
      }
      return;
    }
    if (process.env.BENCH_SCALE_PROTOCOL === 'bulk-load') {
      // Only the loader: its rate per stretch and what a window costs at each step.
      for (const target of steps) {
        printJson({ engine, ...(await measureBulkLoad(grower, target, DIMENSION, log)) });
      }
      return;
    }
    // BENCH_SCALE_MAINTENANCE_ONLY=1: a store already at size, only forget and retention.
    for (const target of process.env.BENCH_SCALE_MAINTENANCE_ONLY ? [] : steps) {
      log(`step ${target}: growing`);
      const grow = await grower.growTo(target, DIMENSION, log);
      embedder.requests.length = 0;
      results.push(await measureStep(target, grow, grower, corpus, env, texts));
      printJson(results[results.length - 1]);
    }
    const maintenance = await measureMaintenance(grower, env, engine);
    printJson({
      bench: 'scale',
      engine,
      embedder: `bag-of-words ${DIMENSION}-d (deterministic, not a model)`,
      steps: results,
      maintenance,
    });
    printTable(results as StepResult[]);
  } finally {
    await grower.close();
    await embedder.close();
  }
}

/** Where the store lives: the Postgres server of DATABASE_URL, or a PGlite data dir. */
function storeEnv(): Record<string, string> {
  if (engine === 'pglite') {
    // Children inherit process.env: a DATABASE_URL left there would pick the server instead.
    delete process.env.DATABASE_URL;
    const dataDir = process.env.BENCH_SCALE_DATA_DIR || mkdtempSync(join(tmpdir(), 'cb-scale-'));
    log(`PGlite data dir: ${dataDir}`);
    return { DATA_DIR: dataDir };
  }
  const databaseUrl = process.env.DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (!databaseUrl) {
    throw new Error(
      'bench:scale on Postgres needs DATABASE_URL (or npm run db:test-server -- run -- npm run bench:scale); BENCH_SCALE_ENGINE=pglite runs embedded',
    );
  }
  return { DATABASE_URL: databaseUrl };
}

/**
 * The grower's settings. On PGlite its one session runs each statement with the row-security
 * scope in the same implicit transaction, where VACUUM is refused ("cannot run inside a
 * transaction block"): the bench's own loader session runs unscoped there (it sees every
 * location anyway); the service it measures keeps row-level security on.
 */
function growerEnv(env: Record<string, string>): Record<string, string> {
  return {
    ...env,
    DATABASE_STATEMENT_TIMEOUT_MS: '600000',
    ...(engine === 'pglite' ? { DATABASE_ROW_SECURITY: 'false' } : {}),
  };
}

type StepResult = Awaited<ReturnType<typeof measureStep>>;

async function measureStep(
  target: number,
  grow: Awaited<ReturnType<ScaleGrower['growTo']>>,
  grower: ScaleGrower,
  corpus: ScaleCorpus,
  env: Record<string, string>,
  texts: string[],
) {
  const typical = await typicalContacts(grower);
  const heaviest = corpus.contactUid(0);
  const before = await grower.windows();
  await grower.release();
  const server = await startServerProcess(env);
  const probe = new ScaleProbe(server.url, texts);
  let measured;
  try {
    // First calls after readiness: nothing warmed them but the service itself.
    const first30 = await probe.context(typical, 30, 1);
    // Postgres with pg_stat_statements: the ingest's top statements by database time.
    const ingest = await withStatementTotals(engine === 'postgres' ? grower.db : undefined, () =>
      measureIngest(server.url, grower, corpus),
    );
    await probe.context(typical, 50, 4);
    measured = {
      first30,
      ingest,
      context_typical: {
        c1: await probe.context(typical, requests, 1),
        c8: await probe.context(typical, requests, 8),
      },
      context_heaviest: {
        c1: await probe.context([heaviest], requests, 1),
        c8: await probe.context([heaviest], requests, 8),
      },
      search_no_contact: {
        c1: await probe.search(requests, 1),
        c8: await probe.search(requests, 8),
      },
    };
  } finally {
    probe.close();
    await server.stop();
  }
  await grower.reacquire();
  const windows = await grower.windows();
  const [{ bytes }] = await grower.db.query<{ bytes: string }>(
    `SELECT pg_database_size(current_database())::bigint AS bytes`,
  );
  const [{ docs }] = await grower.db.query<{ docs: string }>(
    `SELECT coalesce(max(docs), 0) AS docs FROM lexical_contact_stats WHERE contact_uid = $1`,
    [heaviest],
  );
  const { first30, ingest, ...latency } = measured;
  const ingestWindows = windows - before;
  return {
    step: target,
    windows,
    contacts: typical.length,
    heaviest_windows: Number(docs),
    bytes_per_window: Math.round(Number(bytes) / windows),
    database_mb: Math.round(Number(bytes) / 1e6),
    grow,
    ingest_http: {
      ...ingest.result,
      ...(ingest.statements ? { top_statements: ingest.statements } : {}),
      windows: ingestWindows,
      windows_per_s: Math.round(ingestWindows / ingest.result.seconds),
    },
    first_30_after_ready: first30,
    ...latency,
  };
}

/** Contacts of a typical size (the middle of the spread), as most callers are. */
async function typicalContacts(grower: ScaleGrower): Promise<string[]> {
  const rows = await grower.db.query<{ contact_uid: string }>(
    `SELECT contact_uid FROM lexical_contact_stats WHERE docs BETWEEN 5 AND 200
     ORDER BY md5(contact_uid) LIMIT 64`,
  );
  return rows.map((r) => r.contact_uid);
}

/** New conversations through `POST /ingest/conversations`, as a client sends an export. */
async function measureIngest(url: string, grower: ScaleGrower, corpus: ScaleCorpus) {
  const messages = corpus.conversations(
    grower.conversations,
    grower.conversations + ingestConversations,
  );
  grower.conversations += ingestConversations;
  const t0 = performance.now();
  for (let i = 0; i < messages.length; i += INGEST_BATCH) {
    const response = await fetch(`${url}/ingest/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(messages.slice(i, i + INGEST_BATCH)),
    });
    if (!response.ok) {
      throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    messages: messages.length,
    seconds: Number(seconds.toFixed(2)),
    messages_per_s: Math.round(messages.length / seconds),
  };
}

function printTable(results: StepResult[]) {
  const p = (x: { client_ms: { p50: number; p99: number } }) =>
    `${x.client_ms.p50} / ${x.client_ms.p99}`;
  const lines = [
    '| windows | ingest msg/s (HTTP) | typical c=1 p50/p99 | typical c=8 | heaviest (windows) c=1 | heaviest c=8 | /search no contact c=1 | first 30 p99 | bytes/window |',
    '|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.windows} | ${r.ingest_http.messages_per_s} | ${p(r.context_typical.c1)} | ${p(r.context_typical.c8)} | (${r.heaviest_windows}) ${p(r.context_heaviest.c1)} | ${p(r.context_heaviest.c8)} | ${p(r.search_no_contact.c1)} | ${r.first_30_after_ready.client_ms.p99} | ${r.bytes_per_window} |`,
    ),
  ];
  log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
