/**
 * Who used the CPU during a bench:abuse phase (Linux /proc): the server's main thread, each
 * of its other threads (by name and nice value, busiest first: embedding workers run at nice
 * 0 for the foreground one and 10 for the rest), and, on Postgres, the backends of the
 * server's database. In cores (CPU ms ÷ wall ms), so phases of different lengths compare.
 */
import { readdirSync, readFileSync } from 'node:fs';

import { taskCpuMs } from './proc-cpu';

interface Snapshot {
  at: number;
  threads: Map<number, { name: string; nice: number; ms: number }>;
  backends: Map<number, number>;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // gone between the listing and the read
  }
}

const list = (path: string) => {
  try {
    return readdirSync(path);
  } catch {
    return [];
  }
};

/** Backends of `database` on this box: processes named `postgres: <user> <database> …`. */
function backendsOf(database: string): Map<number, number> {
  const out = new Map<number, number>();
  for (const entry of list('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) {
      continue;
    }
    const title = read(`/proc/${pid}/cmdline`)?.replace(/\0/g, ' ') ?? '';
    if (title.startsWith('postgres: ') && title.split(' ')[2] === database) {
      out.set(pid, taskCpuMs(pid));
    }
  }
  return out;
}

export function cpuSnapshot(pid: number, database?: string): Snapshot {
  const threads: Snapshot['threads'] = new Map();
  for (const tid of list(`/proc/${pid}/task`).map(Number)) {
    const stat = read(`/proc/${pid}/task/${tid}/stat`);
    if (stat) {
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      threads.set(tid, { name, nice, ms: taskCpuMs(pid, tid) });
    }
  }
  return {
    at: performance.now(),
    threads,
    backends: database ? backendsOf(database) : new Map(),
  };
}

const cores = (ms: number, wallMs: number) => Number((ms / wallMs).toFixed(3));

/** Cores used between two snapshots, split as the header says. */
export function cpuSplit(pid: number, before: Snapshot, after: Snapshot) {
  const wall = after.at - before.at;
  const threads = [...after.threads].map(([tid, t]) => ({
    tid,
    label: tid === pid ? 'main' : `${t.name} nice ${t.nice}`,
    ms: t.ms - (before.threads.get(tid)?.ms ?? 0),
  }));
  let backends = 0;
  for (const [backend, ms] of after.backends) {
    backends += ms - (before.backends.get(backend) ?? 0);
  }
  const others = threads.filter((t) => t.tid !== pid && t.ms > wall * 0.005);
  return {
    server_main: cores(threads.find((t) => t.tid === pid)?.ms ?? 0, wall),
    server_threads: others
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 8)
      .map((t) => ({ thread: t.label, cores: cores(t.ms, wall) })),
    server_total: cores(
      threads.reduce((a, t) => a + t.ms, 0),
      wall,
    ),
    postgres_backends: cores(backends, wall),
  };
}

export type CpuSplit = ReturnType<typeof cpuSplit>;
