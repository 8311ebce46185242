/**
 * V8 flags for a child process that loads PGlite and the local embedder: several worker
 * threads compile WASM (PGlite's 9 MB Postgres, tfjs) at once, which is what Node/V8's JIT-page
 * bookkeeping races on (`Check failed: jit_page.has_value()`, nodejs/node#64500).
 * `--no-liftoff`: one compile per function, no tier-up replacing and freeing code behind it
 * (what `npm start` and the Dockerfile run). `--no-memory-protection-keys`: no PKU write
 * protection of JIT pages, the known workaround on CPUs that have PKU (a no-op elsewhere).
 */
export const WASM_CHILD_FLAGS = ['--no-liftoff', '--no-memory-protection-keys'];

/** How a V8 fatal error or a bad native access ends a process (never an assertion's exit 1). */
const NATIVE_CRASH_SIGNALS = new Set(['SIGSEGV', 'SIGTRAP', 'SIGILL', 'SIGBUS', 'SIGABRT']);

/** What `execFile` rejects with when the child failed. */
interface ChildFailure {
  signal?: NodeJS.Signals | null;
  stderr?: string;
}

/** The signal `error` says a child died of, when it is a native crash (else undefined). */
export function nativeCrashSignal(error: unknown): string | undefined {
  const signal = (error as ChildFailure | undefined)?.signal;
  return signal && NATIVE_CRASH_SIGNALS.has(signal) ? signal : undefined;
}

/**
 * Runs `attempt` (a child process's whole run: a retry must start from scratch, e.g. a fresh
 * data dir) and runs it once more only when the child died of a native crash signal, saying so
 * on stderr with V8's own line. Anything else, an assertion or a non-zero exit, fails at once.
 */
export async function retryOnNativeCrash<T>(
  what: string,
  attempt: (n: number) => Promise<T>,
): Promise<T> {
  try {
    return await attempt(1);
  } catch (error) {
    const signal = nativeCrashSignal(error);
    if (!signal) {
      throw error;
    }
    const stderr = (error as ChildFailure).stderr ?? '';
    const fatal = stderr.split('\n').filter((line) => /Fatal error|Check failed/.test(line));
    console.warn(
      `${what}: the child died of ${signal} (a V8 native crash, not a test failure: ` +
        `docs/testing.md); running it once more.\n${fatal.join('\n')}`,
    );
    return attempt(2);
  }
}
