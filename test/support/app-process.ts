import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

import { freePort } from './redis';

/** The real service (`src/main.ts`) in a process of its own, as a replica runs in production. */
export interface AppProcess {
  url: string;
  pid: number;
  /** SIGTERM and wait for the exit (a graceful shutdown). */
  stop(): Promise<void>;
  /** SIGKILL and wait for the exit: no shutdown hook runs, connections just drop. */
  kill9(): Promise<void>;
}

const ROOT = join(__dirname, '..', '..');

/**
 * Starts `src/main.ts` under `@swc-node/register` (no build step) with `env` over the
 * parent's (an `undefined` value unsets the variable), on a free port, and resolves once
 * `/health/ready` answers 200. Output is discarded unless `LOG_LEVEL` asks for it (`inherit`
 * with `verbose`; `onStdout` receives it instead).
 */
export async function startAppProcess(
  env: Record<string, string | undefined>,
  options: {
    readyTimeoutMs?: number;
    verbose?: boolean;
    onStdout?: (text: string) => void;
  } = {},
): Promise<AppProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    ['--no-liftoff', '-r', '@swc-node/register', join(ROOT, 'src', 'main.ts')],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'error',
        SEED_DEMO_DATA: 'false',
        RATE_LIMIT_PER_IP_PER_MINUTE: '0',
        RATE_LIMIT_PER_KEY_PER_MINUTE: '0',
        ...env,
        PORT: String(port),
      },
      stdio: [
        'ignore',
        options.onStdout ? 'pipe' : options.verbose ? 'inherit' : 'ignore',
        'inherit',
      ],
    },
  );
  child.stdout?.setEncoding('utf8').on('data', (text: string) => options.onStdout?.(text));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const app: AppProcess = {
    url,
    pid: child.pid as number,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
      }
      await exited;
    },
    kill9: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
      }
      await exited;
    },
  };
  const deadline = Date.now() + (options.readyTimeoutMs ?? 90_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`the app exited with ${child.exitCode} before it was ready`);
    }
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) {
      return app;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await app.kill9();
  throw new Error('the app did not become ready in time');
}
