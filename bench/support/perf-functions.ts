import { execFileSync } from 'node:child_process';

import { frameName, PERF_HZ } from './perf-modules';

/** Self frames of V8's garbage collector (scavenges, marking, sweeping, compaction). */
const GC_FRAME =
  /Heap::|Scavenge|MarkCompact|MinorM|Sweeper|ConcurrentMarking|IncrementalMarking|GCTracer|MemoryAllocator|EvacuateNewSpace|MarkingVisitor/;

/**
 * The thread a sample ran on, as a class: `main`, `v8_helpers` (concurrent GC and compilers of
 * every isolate), `worker:<tid>` (labelled later by what it ran), `other` (libuv pool, …).
 */
function threadClass(comm: string, tid: number, pid: number): string {
  if (tid === pid) {
    return 'main';
  }
  if (/^v8|^V8/.test(comm)) {
    return 'v8_helpers';
  }
  return comm === 'WorkerThread' ? `worker:${tid}` : 'other';
}

/**
 * What a worker thread is, from the frames it ran: the PGlite engine or an embedding worker.
 * /proc names both `WorkerThread`.
 */
function workerLabel(frames: Map<string, number>): string {
  let pglite = 0;
  let embed = 0;
  for (const [frame, n] of frames) {
    pglite += /pglite/i.test(frame) ? n : 0;
    embed += /tfjs|embedding/i.test(frame) ? n : 0;
  }
  return pglite > embed ? 'pglite' : 'embedding';
}

/** One side's perf samples as ms per request: by `<thread> <function>` (self), and GC. */
export interface FunctionProfile {
  /** Self time per request by `<thread class> <innermost frame>`. */
  self: Map<string, number>;
  /** Per thread class: total, and samples whose innermost frame is V8's collector. */
  threads: Map<string, { total: number; gc: number }>;
  /** Main thread: time per request with each file of ours or package anywhere on the stack. */
  inclusive: Map<string, number>;
}

/** The files of ours (`src/…`, `libs/…`) and packages on one sample's stack, each once. */
function stackUnits(frames: readonly string[]): Set<string> {
  const units = new Set<string>();
  for (const frame of frames) {
    const pkg = /node_modules\/((?:@[^/ ]+\/)?[^/ ]+)/.exec(frame);
    const own = / ((?:src|libs)\/[^\s:]+)/.exec(frame);
    if (pkg) {
      units.add(`[pkg] ${pkg[1]}`);
    } else if (own) {
      units.add(own[1]);
    }
  }
  return units;
}

/**
 * Every thread's CPU per request by function (the sampled, innermost frame) and the GC share
 * of each thread class, from a `perf record -g` file of process `pid`. Embedding workers are
 * summed together (their split moves with scheduling, their sum does not); the PGlite worker
 * is its own class.
 */
export function perfFunctions(
  file: string,
  pid: number,
  requests: number,
  roots: readonly string[],
): FunctionProfile {
  const script = execFileSync('perf', ['script', '-i', file, '-F', 'comm,tid,ip,sym'], {
    maxBuffer: 2 * 1024 * 1024 * 1024,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const ms = 1000 / PERF_HZ / requests;
  // First pass keyed by raw thread; worker threads are labelled once all their frames are seen.
  const byThread = new Map<string, Map<string, number>>();
  const inclusive = new Map<string, number>();
  for (const block of script.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length < 2) {
      continue;
    }
    const head = lines[0].trim().split(/\s+/);
    const tid = Number(head.at(-1));
    const thread = threadClass(head.slice(0, -1).join(' '), tid, pid);
    const frames = lines
      .slice(1)
      .map((l) => frameName(l.trim().split(/\s+/).slice(1).join(' '), roots));
    const self = frames[0];
    if (thread === 'main') {
      for (const unit of stackUnits(frames)) {
        inclusive.set(unit, (inclusive.get(unit) ?? 0) + ms);
      }
    }
    const counts = byThread.get(thread) ?? new Map<string, number>();
    counts.set(self, (counts.get(self) ?? 0) + 1);
    byThread.set(thread, counts);
  }
  const self = new Map<string, number>();
  const threads = new Map<string, { total: number; gc: number }>();
  for (const [raw, frames] of byThread) {
    const thread = raw.startsWith('worker:') ? workerLabel(frames) : raw;
    const sums = threads.get(thread) ?? { total: 0, gc: 0 };
    for (const [frame, n] of frames) {
      const key = `${thread} ${frame}`;
      self.set(key, (self.get(key) ?? 0) + n * ms);
      sums.total += n * ms;
      sums.gc += GC_FRAME.test(frame) ? n * ms : 0;
    }
    threads.set(thread, sums);
  }
  return { self, threads, inclusive };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Current against baseline: per thread class its CPU and GC ms per request, and the `top`
 * functions whose self time differs most (current − baseline, ms per request).
 */
export function functionTables(
  [current, baseline]: [FunctionProfile, FunctionProfile],
  top: number,
) {
  const classes = [...new Set([...current.threads.keys(), ...baseline.threads.keys()])].sort();
  const zero = { total: 0, gc: 0 };
  const threads = classes.map((thread) => {
    const [c, b] = [current.threads.get(thread) ?? zero, baseline.threads.get(thread) ?? zero];
    return {
      thread,
      current: round3(c.total),
      baseline: round3(b.total),
      gc_current: round3(c.gc),
      gc_baseline: round3(b.gc),
    };
  });
  const functions = [...new Set([...current.self.keys(), ...baseline.self.keys()])]
    .map((fn) => {
      const [c, b] = [current.self.get(fn) ?? 0, baseline.self.get(fn) ?? 0];
      return { fn, current: round3(c), baseline: round3(b), delta: round3(c - b) };
    })
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta))
    .slice(0, top);
  const inclusive = [...new Set([...current.inclusive.keys(), ...baseline.inclusive.keys()])]
    .map((unit) => {
      const [c, b] = [current.inclusive.get(unit) ?? 0, baseline.inclusive.get(unit) ?? 0];
      return { unit, current: round3(c), baseline: round3(b), delta: round3(c - b) };
    })
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta))
    .slice(0, top);
  return {
    perf_threads_ms_per_request: threads,
    perf_functions_self_ms_per_request: functions,
    main_thread_inclusive_ms_per_request: inclusive,
  };
}
