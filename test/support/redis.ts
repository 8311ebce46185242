import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, Socket } from 'node:net';

/** A Redis the test can use; `stop()` is a no-op for a server the test did not start. */
export interface TestRedis {
  url: string;
  port: number;
  /** True when REDIS_URL pointed at an existing server. */
  external: boolean;
  stop(): Promise<void>;
}

/** A port nothing listens on right now: bind port 0, read it, release it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One raw PING over TCP; true on `+PONG`. Raw so that no client retry logic hides a failure. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}

/**
 * Starts a throwaway `redis-server` on `port` (a free one by default) with persistence off,
 * and resolves once it answers PING. Redis cannot bind port 0 itself, hence {@link freePort}.
 */
export async function spawnRedisServer(port?: number, timeoutMs = 5000): Promise<TestRedis> {
  const p = port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  let exited: number | null | undefined;
  const exit = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  child.once('error', (error) => {
    stderr += error.message;
    exited = -1;
  });

  const deadline = Date.now() + timeoutMs;
  while (!(await ping(p))) {
    if (exited !== undefined || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not start on port ${p}: ${stderr.trim() || 'timeout'}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }

  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    external: false,
    async stop() {
      if (exited !== undefined) {
        return;
      }
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** The server named by REDIS_URL when set (left running afterwards), else a fresh local one. */
export async function startRedis(): Promise<TestRedis> {
  const url = process.env.REDIS_URL;
  if (url) {
    return {
      url,
      port: Number(new URL(url).port || 6379),
      external: true,
      stop: () => Promise.resolve(),
    };
  }
  return spawnRedisServer();
}
