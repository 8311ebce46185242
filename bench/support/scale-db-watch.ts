import { closeSync, openSync, readSync, statSync } from 'node:fs';

import { type Database } from '@app/database';

export type DbProbe = Pick<Database, 'query'>;

/**
 * What the database did while a bench round ran, so a tail is named by measurement:
 *  - block reads that missed shared buffers, per relation (pg_statio_*; Postgres 15 has no
 *    pg_stat_io), with the read time when `track_io_timing` is on;
 *  - autovacuum/autoanalyze runs that finished, and what other sessions were seen doing
 *    (autovacuum workers, the service's index builds) by sampling pg_stat_activity;
 *  - the statements `auto_explain` logged over its threshold, from the server log file
 *    (`BENCH_SCALE_PG_LOG`; the server needs `auto_explain` in shared_preload_libraries).
 */
export async function watchDatabase<T>(
  db: DbProbe | undefined,
  pgLog: string | undefined,
  work: () => Promise<T>,
): Promise<{ result: T; database?: unknown }> {
  if (!db) {
    return { result: await work() };
  }
  const before = await snapshot(db);
  const logFrom = pgLog ? statSync(pgLog).size : 0;
  const seen = new Map<string, number>();
  let done = false;
  const sampler = (async () => {
    while (!done) {
      const rows = await db.query<{ what: string }>(
        `SELECT coalesce(backend_type, '') || ': ' ||
                left(regexp_replace(coalesce(query, ''), '\\s+', ' ', 'g'), 70) AS what
         FROM pg_stat_activity
         WHERE pid <> pg_backend_pid() AND state = 'active'
           AND (backend_type = 'autovacuum worker'
                OR query ~* '^\\s*(create index|reindex|analyze|vacuum|cluster)')`,
      );
      rows.forEach((r) => seen.set(r.what, (seen.get(r.what) ?? 0) + 1));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  let result: T;
  try {
    result = await work();
  } finally {
    done = true;
    await sampler;
  }
  const after = await snapshot(db);
  return {
    result,
    database: {
      ...diff(before, after),
      // Samples are 100 ms apart: a count × 0.1 is roughly the seconds it was seen active.
      background_samples: Object.fromEntries([...seen].sort((a, b) => b[1] - a[1]).slice(0, 8)),
      ...(pgLog ? { auto_explain: slowPlans(pgLog, logFrom) } : {}),
    },
  };
}

interface Snapshot {
  relations: Map<string, { read: number; hit: number }>;
  vacuums: Map<string, { autovacuum: number; autoanalyze: number }>;
  readMs: number;
}

async function snapshot(db: DbProbe): Promise<Snapshot> {
  const io = await db.query<{ name: string; read: string; hit: string }>(
    `SELECT relname AS name,
            coalesce(heap_blks_read, 0) + coalesce(idx_blks_read, 0) + coalesce(toast_blks_read, 0) AS read,
            coalesce(heap_blks_hit, 0) + coalesce(idx_blks_hit, 0) + coalesce(toast_blks_hit, 0) AS hit
     FROM pg_statio_user_tables`,
  );
  const vacuums = await db.query<{ name: string; av: string; aa: string }>(
    `SELECT relname AS name, autovacuum_count AS av, autoanalyze_count AS aa
     FROM pg_stat_user_tables`,
  );
  const [time] = await db.query<{ ms: number }>(
    `SELECT blk_read_time::float8 AS ms FROM pg_stat_database WHERE datname = current_database()`,
  );
  return {
    relations: new Map(io.map((r) => [r.name, { read: Number(r.read), hit: Number(r.hit) }])),
    vacuums: new Map(
      vacuums.map((r) => [r.name, { autovacuum: Number(r.av), autoanalyze: Number(r.aa) }]),
    ),
    readMs: time?.ms ?? 0,
  };
}

function diff(before: Snapshot, after: Snapshot) {
  const reads: Record<string, { read: number; hit: number }> = {};
  for (const [name, now] of after.relations) {
    const was = before.relations.get(name) ?? { read: 0, hit: 0 };
    if (now.read - was.read > 0 || now.hit - was.hit > 1000) {
      reads[name] = { read: now.read - was.read, hit: now.hit - was.hit };
    }
  }
  const vacuumed: string[] = [];
  for (const [name, now] of after.vacuums) {
    const was = before.vacuums.get(name) ?? { autovacuum: 0, autoanalyze: 0 };
    if (now.autovacuum > was.autovacuum) {
      vacuumed.push(`autovacuum ${name}`);
    }
    if (now.autoanalyze > was.autoanalyze) {
      vacuumed.push(`autoanalyze ${name}`);
    }
  }
  return {
    blocks_missed_shared_buffers: reads,
    block_read_ms: Number((after.readMs - before.readMs).toFixed(1)),
    autovacuum_finished: vacuumed,
  };
}

/** auto_explain's entries appended to the server log since `from`: count and the slowest. */
function slowPlans(path: string, from: number) {
  const fd = openSync(path, 'r');
  let text = '';
  try {
    const length = Math.min(statSync(path).size - from, 64 * 1024 * 1024);
    const buffer = Buffer.alloc(Math.max(0, length));
    readSync(fd, buffer, 0, buffer.length, from);
    text = buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
  const entries = text.split(/\n(?=\S)/).flatMap((entry) => {
    const match = /duration: ([\d.]+) ms\s+plan:/.exec(entry);
    if (!match) {
      return [];
    }
    const query = /Query Text: (.*)/.exec(entry)?.[1] ?? '';
    const firstNode = entry.split('\n').find((line) => /\(cost=|\(actual/.test(line)) ?? '';
    return [
      {
        ms: Number(match[1]),
        // SQL with placeholders (the service binds values): no customer text.
        query: query.replace(/\s+/g, ' ').slice(0, 100),
        plan: firstNode.trim().slice(0, 100),
      },
    ];
  });
  entries.sort((a, b) => b.ms - a.ms);
  return { statements: entries.length, slowest: entries.slice(0, 3) };
}

/**
 * Bytes per window of each table (heap + TOAST + free-space maps) and each index, largest
 * first; per-contact HNSW indexes (one per large contact) are summed as one line.
 */
export async function bytesPerWindow(db: DbProbe, windows: number) {
  const rows = await db.query<{ name: string; kind: string; bytes: string }>(
    `SELECT c.relname AS name, c.relkind::text AS kind,
            CASE WHEN c.relkind = 'r' THEN pg_table_size(c.oid) ELSE pg_relation_size(c.oid) END AS bytes
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')`,
  );
  const lines = new Map<string, number>();
  for (const row of rows) {
    const name = /^podium_conversations_hnsw_[0-9a-f]{20}$/.test(row.name)
      ? 'per-contact HNSW indexes (all)'
      : `${row.kind === 'i' ? 'index' : 'table'} ${row.name}`;
    lines.set(name, (lines.get(name) ?? 0) + Number(row.bytes));
  }
  const total = [...lines.values()].reduce((a, b) => a + b, 0);
  const [{ bytes: database }] = await db.query<{ bytes: string }>(
    `SELECT pg_database_size(current_database()) AS bytes`,
  );
  return {
    windows,
    relations_bytes_per_window: Math.round(total / windows),
    database_bytes_per_window: Math.round(Number(database) / windows),
    by_relation: Object.fromEntries(
      [...lines]
        .filter(([, bytes]) => bytes / windows >= 1)
        .sort((a, b) => b[1] - a[1])
        .map(([name, bytes]) => [name, Math.round(bytes / windows)]),
    ),
  };
}
