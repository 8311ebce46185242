import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';

/**
 * Every app a suite boots starts new worker threads that compile the same WASM again:
 * PGlite's Postgres (9 MB) and the local embedder's tfjs backend. V8 shares a compiled
 * module, with every function compiled so far, among all threads of a process while one
 * copy of it is alive, so each Jest worker keeps one of each alive for its whole life: a
 * later thread reuses the code instead of compiling it again (a PGlite thread measured
 * ~1.4 s -> ~0.7 s CPU). Nothing else changes: each thread still instantiates its own module
 * with its own memory. `WASM_CODE_CACHE=0` turns it off.
 */
const MODULES = join(__dirname, '..', '..', 'node_modules');
const WASM = [
  join(MODULES, '@electric-sql', 'pglite', 'dist', 'pglite.wasm'),
  ...['', '-simd', '-threaded-simd'].map((variant) =>
    join(MODULES, '@energetic-ai', 'core', 'dist', `tfjs-backend-wasm${variant}.wasm`),
  ),
];

/** The global, typed here: this project's TypeScript libs carry no WebAssembly types. */
const wasm = (
  globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<object> } }
).WebAssembly;

// Held on a core module: Jest gives each test file a new global object, but core modules
// are the process's own, so the modules outlive every suite this worker runs.
const KEY = Symbol.for('context-bridge.test.wasm-code-cache');
const holder = v8 as unknown as Record<symbol, Map<string, Promise<unknown>> | undefined>;

if (process.env.WASM_CODE_CACHE !== '0') {
  const held = (holder[KEY] ??= new Map());
  for (const path of WASM) {
    if (!held.has(path)) {
      // A file that fails to compile is only a slower boot, never a failed suite.
      held.set(
        path,
        wasm.compile(readFileSync(path)).catch(() => undefined),
      );
    }
  }
}
