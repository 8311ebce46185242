import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICK_MS = 10;

/** CPU time (ms) of every thread of process `pid`, by thread id, from /proc (Linux only). */
export function threadCpuMs(pid: number): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out; // not Linux, or the process is gone: nothing to report
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // Fields after the parenthesised name: state is 3rd, utime 14th and stime 15th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/**
 * CPU per request of a measured run: the client (this process), the server's main thread,
 * and its other threads by CPU, busiest first (embedding workers, the PGlite worker, V8's
 * GC and compiler helpers; unnamed in /proc, so not labelled here).
 */
export function cpuPerRequest(
  serverPid: number,
  before: { server: Map<number, number>; client: NodeJS.CpuUsage },
  requests: number,
) {
  const after = threadCpuMs(serverPid);
  const client = process.cpuUsage(before.client);
  const per = (ms: number) => Number((ms / requests).toFixed(2));
  const deltas = [...after].map(([tid, ms]) => [tid, ms - (before.server.get(tid) ?? 0)]);
  const main = deltas.find(([tid]) => tid === serverPid)?.[1] ?? 0;
  const others = deltas
    .filter(([tid, ms]) => tid !== serverPid && ms > 0)
    .map(([, ms]) => ms)
    .sort((a, b) => b - a);
  return {
    client: per((client.user + client.system) / 1000),
    server_total: per(main + others.reduce((a, b) => a + b, 0)),
    server_main_thread: per(main),
    server_other_threads: others.map(per),
  };
}

/** The state {@link cpuPerRequest} measures from. */
export function cpuSnapshot(serverPid: number) {
  return { server: threadCpuMs(serverPid), client: process.cpuUsage() };
}

/**
 * One task's CPU time so far, in ms, from /proc/<pid>/schedstat's first field (ns): /stat's
 * 10 ms ticks cannot resolve a statement or a short run. 0 once the task is gone.
 */
export function taskCpuMs(pid: number, tid = pid): number {
  try {
    const path = tid === pid ? `/proc/${pid}/schedstat` : `/proc/${pid}/task/${tid}/schedstat`;
    return Number(readFileSync(path, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return 0;
  }
}

/** CPU time (ms, ns resolution) of every thread of process `pid` together, from /proc. */
export function processCpuMs(pid: number): number {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return 0;
  }
  return tids.reduce((sum, tid) => sum + taskCpuMs(pid, Number(tid)), 0);
}
