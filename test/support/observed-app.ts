import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

import { freePort } from './redis';
import { waitFor } from './wait';

const ROOT = join(__dirname, '..', '..');

/** `src/main.ts` in a child process, with everything it writes kept for inspection. */
export interface ObservedServer {
  url: string;
  child: ChildProcess;
  /** stdout, one entry per line (the JSON log lines). */
  stdout: string[];
  /** stderr, as written. */
  stderr: string[];
  exited: Promise<number | null>;
}

/**
 * `node -r @swc-node/register src/main.ts`, the same entry point as `npm start`, so the
 * instrumentations are registered before the app's modules load (an in-process Jest app
 * cannot show that). Only `env` is passed: nothing of the runner's environment (`OTEL_*`
 * included) leaks in. Resolves once `/health/ready` answers 200.
 */
export async function startObservedServer(env: Record<string, string>): Promise<ObservedServer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    stdout.push(...lines.filter((line) => line.length > 0));
  });
  child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const url = `http://127.0.0.1:${port}`;
  let gone = false;
  void exited.then(() => (gone = true));
  await waitFor(
    'the server to be ready',
    async () => {
      if (gone) {
        throw new Error(`the server exited during boot: ${stderr.join('')}`);
      }
      const ready = await fetch(`${url}/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      return ready ? true : undefined;
    },
    110_000,
  );
  return { url, child, stdout, stderr, exited };
}

/** SIGTERM (a clean shutdown flushes the spans still batched) and wait for the exit. */
export async function stopObservedServer(server: ObservedServer | undefined): Promise<void> {
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGTERM');
  }
  await server?.exited;
}
