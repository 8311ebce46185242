import { type Database } from '@app/database';

import { type ContextBundle } from '../../src/context/context.dto';
import { JsonClient } from './http-client';
import { loadSgdConversations } from './sgd';
import { runConcurrent, summarize } from './stats';

/** Customer turns of the SGD dialogues: distinct query texts, so no cache flatters a figure. */
export function customerTurns(): string[] {
  return loadSgdConversations()
    .flatMap((c) => c.turns.filter((t) => t.role === 'customer').map((t) => t.text.trim()))
    .filter((text) => text.split(/\s+/).length >= 5);
}

export interface LatencyProbe {
  requests: number;
  concurrency: number;
  client_ms: ReturnType<typeof summarize>;
  server_ms?: ReturnType<typeof summarize>;
  partial: number;
  errors: number;
  throughput_per_s: number;
}

/** Drives /context or /search at a concurrency; client-side latency beside server-side. */
export class ScaleProbe {
  private next = 0;
  private readonly client: JsonClient;

  constructor(
    url: string,
    private readonly texts: string[],
  ) {
    this.client = new JsonClient(url, 64);
  }

  private text(): string {
    return this.texts[(this.next++ * 7919) % this.texts.length];
  }

  async context(contacts: string[], requests: number, concurrency: number): Promise<LatencyProbe> {
    const server: number[] = [];
    let partial = 0;
    let errors = 0;
    const run = await runConcurrent(requests, concurrency, async (i) => {
      const response = await this.client.post<ContextBundle>('/context', {
        transcript: this.text(),
        contact_uid: contacts[i % contacts.length],
      });
      if (response.status !== 200) {
        errors++;
        return;
      }
      server.push(response.body.meta.elapsed_ms);
      partial += response.body.meta.partial ? 1 : 0;
    });
    return this.report(requests, concurrency, run, server, partial, errors);
  }

  async search(requests: number, concurrency: number): Promise<LatencyProbe> {
    let errors = 0;
    const run = await runConcurrent(requests, concurrency, async () => {
      const response = await this.client.post<unknown>('/search', { query: this.text(), top_k: 5 });
      errors += response.status === 200 ? 0 : 1;
    });
    return this.report(requests, concurrency, run, [], 0, errors);
  }

  close(): void {
    this.client.close();
  }

  private report(
    requests: number,
    concurrency: number,
    run: { latencies: number[]; wallMs: number },
    server: number[],
    partial: number,
    errors: number,
  ): LatencyProbe {
    return {
      requests,
      concurrency,
      client_ms: summarize(run.latencies),
      ...(server.length ? { server_ms: summarize(server) } : {}),
      partial,
      errors,
      throughput_per_s: Number((requests / (run.wallMs / 1000)).toFixed(1)),
    };
  }
}

/**
 * Samples the longest-running statement while `work` runs (pg_stat_activity every 50 ms), so
 * a maintenance job's "no statement over N seconds" is measured, not assumed.
 */
export async function withStatementWatch<T>(
  /** Undefined: time `work` only (PGlite, where no second session can watch). */
  db: Pick<Database, 'query'> | undefined,
  work: () => Promise<T>,
): Promise<{
  result: T;
  seconds: number;
  longest_statement_s?: number;
  longest_statement?: string;
}> {
  let longest = { s: 0, query: '' };
  let done = false;
  const watcher = (async () => {
    while (db && !done) {
      const rows = await db.query<{ s: number; query: string }>(
        `SELECT extract(epoch FROM clock_timestamp() - query_start)::float8 AS s,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 120) AS query
         FROM pg_stat_activity
         WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid() AND query NOT ILIKE '%pg_stat_activity%'
         ORDER BY s DESC LIMIT 1`,
      );
      if (rows[0] && rows[0].s > longest.s) {
        longest = { s: rows[0].s, query: rows[0].query };
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const t0 = performance.now();
  try {
    const result = await work();
    const seconds = Number(((performance.now() - t0) / 1000).toFixed(2));
    if (!db) {
      return { result, seconds };
    }
    return {
      result,
      seconds,
      longest_statement_s: Number(longest.s.toFixed(2)),
      longest_statement: longest.query,
    };
  } finally {
    done = true;
    await watcher;
  }
}

/**
 * Where a piece of work spent its database time: the top statements by total time from
 * pg_stat_statements (reset first). Undefined when the server does not load the extension
 * (`shared_preload_libraries = 'pg_stat_statements'` and `CREATE EXTENSION pg_stat_statements`).
 */
export async function withStatementTotals<T>(
  db: Pick<Database, 'query'> | undefined,
  work: () => Promise<T>,
): Promise<{ result: T; statements?: Array<{ calls: number; total_s: number; query: string }> }> {
  const available =
    db &&
    (
      await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_stat_statements'`,
      )
    )[0].n > 0;
  if (!db || !available) {
    return { result: await work() };
  }
  await db.query('SELECT pg_stat_statements_reset()');
  const result = await work();
  const statements = await db.query<{ calls: number; total_s: number; query: string }>(
    `SELECT calls::int, round((total_exec_time / 1000)::numeric, 3)::float8 AS total_s,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
     FROM pg_stat_statements WHERE query NOT ILIKE '%pg_stat_statements%'
     ORDER BY total_exec_time DESC LIMIT 6`,
  );
  return { result, statements };
}
