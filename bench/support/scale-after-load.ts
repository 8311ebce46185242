import { type ContextBundle } from '../../src/context/context.dto';
import { JsonClient } from './http-client';
import { prng } from './prng';
import { bulkLoad } from './scale-bulk-load';
import { type ScaleCorpus } from './scale-corpus';
import { bytesPerWindow, type DbProbe, watchDatabase } from './scale-db-watch';
import { type ScaleGrower } from './scale-grow';
import { secondsUntilIndexed, storeState } from './scale-store-state';
import { startServerProcess } from './server-process';
import { summarize } from './stats';

/**
 * The protocol of issue 42, the way an organisation meets the store: history grown through
 * `POST /ingest/conversations` with every index live (no bulk-load shortcuts, no VACUUM
 * ANALYZE after), then with no pause 30 warm-up calls, 300 /context calls at c=1 to contacts
 * drawn at random (most of them cold), 100 to the heaviest, 50 unfiltered /search, with
 * autovacuum and the service's own maintenance running; then again after an idle period.
 * Each call's server stages are kept, so the slowest 1% say where their time went.
 */

const INGEST_BATCH = 4000;
const WARMUP = 30;
const TYPICAL = 300;
const HEAVIEST = 100;
const SEARCH = 50;
/** The share of a bulk-mode growth sent over HTTP (`BENCH_SCALE_HTTP_SHARE`, default 10%). */
const HTTP_SHARE = Math.min(1, Math.max(0, Number(process.env.BENCH_SCALE_HTTP_SHARE ?? 0.1)));

interface Call {
  client_ms: number;
  server_ms?: number;
  stages?: Record<string, number>;
}

/** Ingests over HTTP until the store holds `target` windows; the rate a client saw. */
async function growOverHttp(
  url: string,
  grower: ScaleGrower,
  corpus: ScaleCorpus,
  target: number,
  log: (line: string) => void,
) {
  const t0 = performance.now();
  const before = await grower.windows();
  let windows = before;
  let messages = 0;
  // The rate over the last tenth of the growth: the ingest rate at (about) the target size.
  const tail = { from: before + 0.9 * (target - before), t0: 0, messages: 0 };
  while (windows < target) {
    if (!tail.t0 && windows >= tail.from) {
      tail.t0 = performance.now();
      tail.messages = messages;
    }
    const perConversation = grower.conversations > 0 ? windows / grower.conversations : 4.5;
    const step = Math.max(50, Math.min(900, Math.ceil((target - windows) / perConversation)));
    const batch = corpus.conversations(grower.conversations, grower.conversations + step);
    grower.conversations += step;
    for (let i = 0; i < batch.length; i += INGEST_BATCH) {
      const response = await fetch(`${url}/ingest/conversations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(batch.slice(i, i + INGEST_BATCH)),
      });
      if (!response.ok) {
        throw new Error(`ingest answered ${response.status}: ${await response.text()}`);
      }
    }
    messages += batch.length;
    const was = windows;
    windows = await grower.windows();
    if (Math.floor(windows / 20_000) > Math.floor(was / 20_000)) {
      const seconds = (performance.now() - t0) / 1000;
      log(`http grow: ${windows} windows, ${Math.round(messages / seconds)} msg/s`);
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  return {
    windows: windows - before,
    messages,
    seconds: Number(seconds.toFixed(1)),
    messages_per_s: Math.round(messages / seconds),
    last_tenth_messages_per_s: tail.t0
      ? Math.round((messages - tail.messages) / ((performance.now() - tail.t0) / 1000))
      : null,
  };
}

/** The slowest 1% of calls (at least one): their mean stages, and the stage that led. */
function slowestShare(calls: Call[], share = 0.01) {
  const sorted = [...calls].sort((a, b) => b.client_ms - a.client_ms);
  const slow = sorted.slice(0, Math.max(1, Math.ceil(calls.length * share)));
  const totals: Record<string, number> = {};
  for (const call of slow) {
    for (const [name, ms] of Object.entries(call.stages ?? {})) {
      totals[name] = (totals[name] ?? 0) + ms;
    }
  }
  const mean = Object.fromEntries(
    Object.entries(totals).map(([name, ms]) => [name, Number((ms / slow.length).toFixed(2))]),
  );
  // `retrieve` spans embed and search: the leaves say where its time went.
  const leaves = Object.entries(mean).filter(([name]) => name !== 'retrieve_ms');
  leaves.sort((a, b) => b[1] - a[1]);
  return {
    calls: slow.length,
    client_ms: slow.map((c) => Number(c.client_ms.toFixed(1))),
    server_ms: slow.flatMap((c) => (c.server_ms === undefined ? [] : [c.server_ms])),
    mean_stages_ms: mean,
    leading_stage: leaves[0]?.[0].replace(/_ms$/, ''),
  };
}

function report(calls: Call[]) {
  const server = calls.flatMap((c) => (c.server_ms === undefined ? [] : [c.server_ms]));
  return {
    client_ms: summarize(calls.map((c) => c.client_ms)),
    ...(server.length ? { server_ms: summarize(server) } : {}),
    slowest_1pct: slowestShare(calls),
  };
}

class AfterLoadProbe {
  private readonly client: JsonClient;
  private next = 0;

  constructor(
    url: string,
    private readonly texts: string[],
    private readonly corpus: ScaleCorpus,
    readonly seed: number,
  ) {
    this.client = new JsonClient(url, 4);
  }

  /** One round of the protocol, with the database watched while it runs. */
  async round(db: DbProbe | undefined, pgLog?: string) {
    const random = prng(this.seed + this.next);
    // Uniform over the contacts, not over their windows: most draws are small, cold histories.
    const contact = () => this.corpus.contactUid(Math.floor(random() * this.corpus.contacts));
    const watched = await watchDatabase(db, pgLog, async () => {
      await this.calls(WARMUP, contact);
      const typical = await this.calls(TYPICAL, contact);
      const heaviest = await this.calls(HEAVIEST, () => this.corpus.contactUid(0));
      const search = await this.searches(SEARCH);
      return {
        context_typical: report(typical),
        context_heaviest: report(heaviest),
        search_no_contact: report(search),
      };
    });
    return { ...watched.result, database: watched.database };
  }

  close(): void {
    this.client.close();
  }

  private text(): string {
    return this.texts[(this.next++ * 7919) % this.texts.length];
  }

  private async calls(n: number, contact: () => string): Promise<Call[]> {
    const out: Call[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const response = await this.client.post<ContextBundle>('/context', {
        transcript: this.text(),
        contact_uid: contact(),
      });
      const client_ms = performance.now() - t0;
      if (response.status !== 200) {
        throw new Error(`/context answered ${response.status}`);
      }
      const { elapsed_ms, stages } = response.body.meta;
      out.push({ client_ms, server_ms: elapsed_ms, stages });
    }
    return out;
  }

  private async searches(n: number): Promise<Call[]> {
    const out: Call[] = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const response = await this.client.post<unknown>('/search', {
        query: this.text(),
        top_k: 5,
      });
      if (response.status !== 200) {
        throw new Error(`/search answered ${response.status}`);
      }
      out.push({ client_ms: performance.now() - t0 });
    }
    return out;
  }
}

/**
 * One step of the protocol: the service started, the store grown over HTTP to `target`, a
 * round at once, a round after `BENCH_SCALE_IDLE_S` of idle (default an hour, as the issue
 * asks; 0 skips it), and what each relation costs per window.
 */
export async function measureAfterLoad(
  target: number,
  grower: ScaleGrower,
  corpus: ScaleCorpus,
  env: Record<string, string>,
  texts: string[],
  dimension: number,
  log: (line: string) => void,
) {
  const seed = Number(process.env.BENCH_SCALE_SEED ?? 42);
  const idleS = Number(process.env.BENCH_SCALE_IDLE_S ?? 3600);
  const pgLog = process.env.BENCH_SCALE_PG_LOG || undefined;
  log(`after-load protocol: seed ${seed}, idle ${idleS} s, auto_explain log ${pgLog ?? 'none'}`);
  // BENCH_SCALE_GROWTH=bulk: all but the last share of the growth in bulk (scale-bulk-load.ts),
  // the rest over HTTP, so the ingest rate at size is still a client's and the round starts
  // straight after an HTTP import.
  const bulk =
    process.env.BENCH_SCALE_GROWTH === 'bulk'
      ? await bulkLoad(grower, Math.round(target * (1 - HTTP_SHARE)), dimension, log)
      : undefined;
  const server = await startServerProcess(env);
  const probe = new AfterLoadProbe(server.url, texts, corpus, seed);
  try {
    const ingest = await growOverHttp(server.url, grower, corpus, target, log);
    const ingestEnded = performance.now();
    const atRound = await storeState(grower.db);
    const roundDone = probe.round(grower.db, pgLog);
    // Large contacts left without their own index by the load: when the service built them.
    const indexedAfter = secondsUntilIndexed(grower.db, ingestEnded, roundDone);
    const afterLoad = await roundDone;
    const store = {
      ...atRound,
      every_large_contact_indexed_after_ingest_s: await indexedAfter,
    };
    log(`after load: ${JSON.stringify(headline(afterLoad))}`);
    let afterIdle;
    if (idleS > 0) {
      await new Promise((resolve) => setTimeout(resolve, idleS * 1000));
      afterIdle = await probe.round(grower.db, pgLog);
      log(`after ${idleS} s idle: ${JSON.stringify(headline(afterIdle))}`);
    }
    const windows = await grower.windows();
    return {
      protocol: 'after-load',
      step: target,
      seed,
      idle_s: idleS,
      ...(bulk ? { bulk_load: bulk } : {}),
      ingest_http: ingest,
      // What the store held when the first round began (issue 42's changes in it).
      store_at_first_round: store,
      after_load: afterLoad,
      ...(afterIdle ? { after_idle: afterIdle } : {}),
      bytes: await bytesPerWindow(grower.db, windows),
    };
  } finally {
    probe.close();
    await server.stop();
  }
}

/** The figures the acceptance lines name. */
function headline(round: Awaited<ReturnType<AfterLoadProbe['round']>>) {
  const p = (r: { client_ms: { p50: number; p99: number } }) =>
    `${r.client_ms.p50}/${r.client_ms.p99}`;
  return {
    typical: p(round.context_typical),
    typical_server_p99: round.context_typical.server_ms?.p99,
    typical_slowest_stage: round.context_typical.slowest_1pct.leading_stage,
    heaviest: p(round.context_heaviest),
    heaviest_slowest_stage: round.context_heaviest.slowest_1pct.leading_stage,
    search: p(round.search_no_contact),
  };
}
