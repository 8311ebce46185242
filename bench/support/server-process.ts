import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * The service in its own process, as production runs it (`npm start`'s V8 flags included), so the load generator does not
 * share the server's event loop (in-process clients inflate server latency).
 */
export async function startServerProcess(
  env: Record<string, string>,
  /** Another checkout to run (a baseline), with its own node_modules; default this one. */
  root = join(__dirname, '..', '..'),
): Promise<{ url: string; pid: number; stop(): Promise<void> }> {
  const port = await freePort();
  // BENCH_NODE in a side's env runs that side on another Node binary (20 against 24, say).
  const child: ChildProcess = spawn(
    env.BENCH_NODE ?? process.execPath,
    ['--no-liftoff', '-r', '@swc-node/register', join(root, 'src', 'main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        LOG_LEVEL: 'error',
        SEED_DEMO_DATA: 'false',
        // Load from one loopback client is the point here, not something to throttle.
        RATE_LIMIT_PER_IP_PER_MINUTE: '0',
        ...env,
        PORT: String(port),
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  // 120 s by default; a box loaded by other work may need BENCH_READY_TIMEOUT_S longer.
  const polls = Number(process.env.BENCH_READY_TIMEOUT_S ?? 120) * 5;
  for (let i = 0; i < polls; i++) {
    if (child.exitCode !== null) {
      throw new Error(`server exited with ${child.exitCode}`);
    }
    const ok = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      return {
        url,
        pid: child.pid as number,
        stop: () =>
          new Promise((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      };
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error('server did not become ready');
}

/** `NAME=value,NAME=value` (a bench's BENCH_CURRENT_ENV, BENCH_BASELINE_ENV) as env. */
export const envList = (text = ''): Record<string, string> =>
  Object.fromEntries(
    text
      .split(',')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
