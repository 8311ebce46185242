import { mkdirSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

import { lockDataDir } from '../data-dir-lock';
import { DatabaseUnavailableError } from '../errors';
import { type SqlClient, type SqlExecutor } from '../interfaces/sql-client.interface';
import { PGLITE_WORKER_SOURCE } from './pglite-worker-source';

type Op =
  | { op: 'open'; dataDir: string; settings: string }
  | { op: 'query' | 'execute'; sql: string; params: unknown[]; tx?: number }
  | { op: 'prepared'; sql: string; params: unknown[] }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' | 'commit' | 'rollback'; tx: number }
  | { op: 'close' };

interface Reply {
  id: number;
  value?: unknown;
  error?: { message: string; name: string } & Record<string, string>;
}

/** A Postgres error rebuilt on this side of the thread boundary, `code` and all. */
function toError(fields: NonNullable<Reply['error']>): Error {
  return Object.assign(new Error(fields.message), fields);
}

/**
 * Embedded Postgres (PGlite, WASM) with pgvector, in a worker thread. PGlite is synchronous
 * WASM: run on the main thread, every statement blocked HTTP, timers and the deadline
 * (p99 event-loop stalls of 100–200 ms under load). Here the main thread only posts messages
 * and receives rows. One session: PGlite queues statements, and a transaction holds that
 * queue until it commits or rolls back.
 */
export class PgliteClient implements SqlClient {
  readonly engine = 'pglite';
  private readonly pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void }
  >();
  private nextId = 1;
  private nextTx = 1;
  private stopped?: Error;

  private constructor(
    private readonly worker: Worker,
    private readonly unlock?: () => void,
  ) {
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', () => this.fail(new Error('exited')));
  }

  /** Opens `dataDir` (`memory://` for RAM) in a new worker, locking it against a second process. */
  static async open(dataDir: string, sessionSettings: string): Promise<PgliteClient> {
    let unlock: (() => void) | undefined;
    if (!dataDir.startsWith('memory://')) {
      mkdirSync(dataDir, { recursive: true });
      unlock = lockDataDir(dataDir);
    }
    const worker = new Worker(PGLITE_WORKER_SOURCE, {
      eval: true,
      workerData: {
        pglitePath: require.resolve('@electric-sql/pglite'),
        vectorPath: require.resolve('@electric-sql/pglite-pgvector'),
      },
    });
    const client = new PgliteClient(worker, unlock);
    try {
      await client.call({ op: 'open', dataDir, settings: sessionSettings });
      return client;
    } catch (error) {
      await client.terminate();
      throw error;
    }
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.call({ op: 'query', sql, params }) as Promise<T[]>;
  }

  queryPrepared<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.call({ op: 'prepared', sql, params }) as Promise<T[]>;
  }

  execute(sql: string, params: unknown[] = []): Promise<number> {
    return this.call({ op: 'execute', sql, params }) as Promise<number>;
  }

  async exec(script: string): Promise<void> {
    await this.call({ op: 'exec', sql: script });
  }

  /** One session is all PGlite has: the work runs on it, between other callers' statements. */
  session<T>(work: (session: SqlExecutor) => Promise<T>): Promise<T> {
    return work(this);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const tx = this.nextTx++;
    await this.call({ op: 'begin', tx });
    let result: T;
    try {
      result = await work({
        query: <R>(sql: string, params: unknown[] = []) =>
          this.call({ op: 'query', sql, params, tx }) as Promise<R[]>,
        execute: (sql: string, params: unknown[] = []) =>
          this.call({ op: 'execute', sql, params, tx }) as Promise<number>,
        exec: async (sql: string) => {
          await this.call({ op: 'exec', sql, tx });
        },
      });
    } catch (error) {
      await this.call({ op: 'rollback', tx }).catch(() => undefined);
      throw error;
    }
    await this.call({ op: 'commit', tx });
    return result;
  }

  async close(): Promise<void> {
    try {
      if (!this.stopped) {
        await this.call({ op: 'close' });
      }
    } finally {
      await this.terminate();
    }
  }

  private async terminate(): Promise<void> {
    this.stopped ??= new DatabaseUnavailableError('the embedded database is closed');
    await this.worker.terminate();
    this.unlock?.();
  }

  private call(message: Op): Promise<unknown> {
    if (this.stopped) {
      return Promise.reject(this.stopped);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, ...message });
    });
  }

  private settle(reply: Reply): void {
    const waiter = this.pending.get(reply.id);
    this.pending.delete(reply.id);
    if (reply.error) {
      waiter?.reject(toError(reply.error));
    } else {
      waiter?.resolve(reply.value);
    }
  }

  /** The worker died (a WASM trap, out of memory): nobody waits forever, nothing runs after. */
  private fail(cause: Error): void {
    this.stopped ??= new DatabaseUnavailableError(`the embedded database worker ${cause.message}`);
    for (const waiter of this.pending.values()) {
      waiter.reject(this.stopped);
    }
    this.pending.clear();
  }
}
