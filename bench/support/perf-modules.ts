import { type ChildProcess, execFileSync, spawn } from 'node:child_process';

/**
 * CPU-clock sampling of a server with Linux `perf`, for attributing CPU to code. perf's
 * `cpu-clock` event samples a thread only while it runs, so a box loaded by other work does
 * not inflate the figures as it inflates V8's own profiler (a wall-clock sampler, whose
 * samples weigh the time a descheduled thread waited). The server must run with
 * {@link PERF_NODE_OPTIONS} for JavaScript frames to have names.
 */
export const PERF_NODE_OPTIONS = '--perf-basic-prof --interpreted-frames-native-stack';

/** Samples per second and thread. */
export const PERF_HZ = 499;

/** Starts `perf record` on process `pid` (every thread), writing `file`; stop it to finish. */
export function startPerf(pid: number, file: string): { stop(): Promise<void> } {
  const child: ChildProcess = spawn(
    'perf',
    ['record', '-q', '-e', 'cpu-clock', '-F', String(PERF_HZ), '-g', '-p', String(pid), '-o', file],
    { stdio: 'ignore' },
  );
  return {
    stop: () =>
      new Promise((resolve) => {
        // Ended already: by itself, or by the SIGINT of an earlier stop() (signalCode).
        if (child.exitCode !== null || child.signalCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGINT');
      }),
  };
}

/** A JIT frame's name without V8's tier marks and this machine's paths (`fn src/x.ts`). */
export function frameName(symbol: string, roots: readonly string[]): string {
  let name = symbol.replace(/^JS:[*^+~]?/, '').replace(/'/g, '');
  for (const root of roots) {
    name = name.split(`${root}/`).join('');
  }
  return name.replace(/:\d+:\d+$/, '');
}

/**
 * Where a sample's CPU goes: the innermost frame of this service's own code (`src/…`,
 * `libs/…`; so a library called from it counts to the caller's file), else the package,
 * Node module or engine part the sampled frame belongs to.
 */
function moduleOf(frames: readonly string[]): string {
  for (const frame of frames) {
    const own = / ((?:src|libs)\/\S+)/.exec(frame);
    if (own && !frame.includes('node_modules')) {
      return own[1];
    }
  }
  const top = frames[0] ?? '?';
  const pkg = /node_modules\/((?:@[^/ ]+\/)?[^/ ]+)/.exec(top);
  if (pkg) {
    return `[pkg] ${pkg[1]}`;
  }
  const builtin = / (node:\S+)/.exec(top);
  if (builtin) {
    return `[node] ${builtin[1]}`;
  }
  if (top.startsWith('Builtins_') || top.includes('v88internal') || top.startsWith('v8::')) {
    return '[v8: builtins, runtime, GC]';
  }
  return '[native, kernel]';
}

/**
 * Milliseconds of one thread's CPU per request, by module (see {@link moduleOf}), from a
 * `perf record` file. `roots` are the checkouts' directories, stripped from file names so
 * two checkouts' modules line up.
 */
export function perfModules(
  file: string,
  tid: number,
  requests: number,
  roots: readonly string[],
): Map<string, number> {
  const script = execFileSync('perf', ['script', '-i', file, '-F', 'tid,ip,sym'], {
    maxBuffer: 1024 * 1024 * 1024,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const out = new Map<string, number>();
  for (const block of script.split('\n\n')) {
    const lines = block.split('\n').filter((l) => l.trim() !== '');
    if (lines.length === 0 || Number(lines[0].trim().split(/\s+/)[0]) !== tid) {
      continue;
    }
    const frames = lines.slice(1).map((l) => {
      const symbol = l.trim().split(/\s+/).slice(1).join(' ');
      return frameName(symbol, roots);
    });
    const key = moduleOf(frames);
    out.set(key, (out.get(key) ?? 0) + 1000 / PERF_HZ / requests);
  }
  return out;
}
