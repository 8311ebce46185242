import { mkdirSync } from 'node:fs';
import { type ResourceLimits, Worker } from 'node:worker_threads';

import { isBackgroundWork } from '@app/common';

import { lockDataDir } from '../data-dir-lock';
import { DatabaseTimeoutError, DatabaseUnavailableError } from '../errors';
import { type OrmConnections } from '../interfaces/orm-pool.interface';
import {
  type QueryOptions,
  type SqlClient,
  type SqlExecutor,
} from '../interfaces/sql-client.interface';
import { SCOPE_STATEMENT } from '../row-security/database-scope';
import { BackgroundLane } from './background-lane';
import { pgliteOrmConnections } from './pglite-orm-connection';
import { PGLITE_WORKER_SOURCE } from './pglite-worker-source';

type Op =
  | { op: 'open'; dataDir: string; settings: string; sharedBuffersMb?: number }
  | { op: 'query' | 'execute' | 'result'; sql: string; params: unknown[]; tx?: number }
  | { op: 'prepared'; sql: string; params: unknown[] }
  | { op: 'exec'; sql: string; tx?: number }
  // A statement outside a transaction, row-level security on: its app.locations value.
  | ({ op: 'query' | 'execute' | 'result' | 'prepared' | 'exec'; sql: string } & { scope: string })
  | { op: 'begin' | 'commit' | 'rollback'; tx: number }
  | { op: 'close' };

interface Reply {
  id: number;
  value?: unknown;
  error?: { message: string; name: string } & Record<string, string>;
}

/** How one call may end early: its caller's signal, or its time limit (0: none). */
interface CallLimits {
  signal?: AbortSignal;
  timeoutMs: number;
}

/**
 * The worker's V8 young generation. Rows and protocol buffers are short-lived; unbounded, V8
 * sized it for a large heap (192 MB on a 24 GB box), resident once used. The engine's own
 * memory is WASM, outside these limits.
 */
const PGLITE_WORKER_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 16 };

/** Longest wait for a clean close before the worker is terminated anyway. */
const CLOSE_TIMEOUT_MS = 5000;

/** A Postgres error rebuilt on this side of the thread boundary, `code` and all. */
function toError(fields: NonNullable<Reply['error']>): Error {
  return Object.assign(new Error(fields.message), fields);
}

export interface PgliteClientOptions {
  /** `memory://` for RAM, else a directory (created and locked against a second process). */
  dataDir: string;
  /** SQL run once per session (e.g. `SET hnsw.ef_search = 100`). */
  sessionSettings: string;
  /**
   * Longest a call may take, its wait in the queue included (`DATABASE_STATEMENT_TIMEOUT_MS`);
   * past it the call fails with `database_timeout`. Scripts (`exec`: migrations, which may
   * build an index) and open/close are not limited.
   */
  statementTimeoutMs: number;
  /** The engine's `shared_buffers` in MB (default: Postgres's own, 128). */
  sharedBuffersMb?: number;
  /**
   * Row-level security on: the `app.locations` value for the work running now, set for each
   * statement's own transaction, and for each transaction after its begin.
   */
  scope?: () => string;
  /** Called once if the worker dies by itself (not by {@link PgliteClient.close}). */
  onExit?: (client: PgliteClient) => void;
}

/**
 * Embedded Postgres (PGlite, WASM) with pgvector, in a worker thread. PGlite is synchronous
 * WASM: run on the main thread, every statement blocked HTTP, timers and the deadline
 * (p99 event-loop stalls of 100–200 ms under load). Here the main thread only posts messages
 * and receives rows. One session: PGlite queues statements, and a transaction holds that
 * queue until it commits or rolls back.
 *
 * A running WASM statement cannot be interrupted, so a time limit or an aborted signal ends
 * the *call* at once (`database_timeout`, or the signal's reason) and drops the statement if
 * it is still queued; one already running finishes and its answer is discarded. A worker
 * that dies fails every call in flight with `database_unavailable` and reports `onExit`:
 * the owner ({@link Database}) opens a new one on the same data dir.
 */
export class PgliteClient implements SqlClient {
  readonly engine = 'pglite';
  private readonly pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void }
  >();
  private nextId = 1;
  private nextTx = 1;
  /** Background work's turn on the session (`inBackground`): live statements go ahead of it. */
  private readonly background = new BackgroundLane();
  /** The background turn each background transaction holds until it ends. */
  private readonly backgroundTx = new Map<number, () => void>();
  private stopped?: Error;
  /** Messages the worker has not answered yet, abandoned calls included. */
  private unanswered = 0;
  /** When the worker last answered, or was first given work after being idle. */
  private progressAt = performance.now();

  private constructor(
    private readonly worker: Worker,
    private readonly options: PgliteClientOptions,
    private readonly unlock?: () => void,
  ) {
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (error: Error) => this.fail(error));
    worker.on('exit', () => this.fail(new Error('exited')));
  }

  /** Opens the data dir in a new worker, locking it against a second process. */
  static async open(options: PgliteClientOptions): Promise<PgliteClient> {
    const { dataDir } = options;
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
      resourceLimits: PGLITE_WORKER_LIMITS,
    });
    const client = new PgliteClient(worker, options, unlock);
    try {
      await client.call(
        {
          op: 'open',
          dataDir,
          settings: options.sessionSettings,
          sharedBuffersMb: options.sharedBuffersMb,
        },
        { timeoutMs: 0 },
      );
      return client;
    } catch (error) {
      await client.terminate();
      throw error;
    }
  }

  /**
   * How long the worker has had work and answered nothing (0 when idle): a worker stuck in
   * a statement that never ends is alive to Node but useless (see `Database.liveness`).
   */
  stalledMs(): number {
    return this.unanswered > 0 ? performance.now() - this.progressAt : 0;
  }

  query<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<T[]> {
    return this.call({ op: 'query', sql, params }, this.limits(options)) as Promise<T[]>;
  }

  queryPrepared<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<T[]> {
    return this.call({ op: 'prepared', sql, params }, this.limits(options)) as Promise<T[]>;
  }

  execute(sql: string, params: unknown[] = []): Promise<number> {
    return this.call({ op: 'execute', sql, params }, this.limits()) as Promise<number>;
  }

  async exec(script: string): Promise<void> {
    await this.call({ op: 'exec', sql: script }, { timeoutMs: 0 });
  }

  /** One session is all PGlite has: the work runs on it, between other callers' statements. */
  session<T>(work: (session: SqlExecutor) => Promise<T>): Promise<T> {
    return work(this);
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const tx = await this.begin();
    let result: T;
    try {
      result = await work({
        query: <R>(sql: string, params: unknown[] = []) =>
          this.call({ op: 'query', sql, params, tx }, this.limits()) as Promise<R[]>,
        execute: (sql: string, params: unknown[] = []) =>
          this.call({ op: 'execute', sql, params, tx }, this.limits()) as Promise<number>,
        exec: async (sql: string) => {
          await this.call({ op: 'exec', sql, tx }, { timeoutMs: 0 });
        },
      });
    } catch (error) {
      await this.end(tx, false).catch(() => undefined);
      throw error;
    }
    await this.end(tx, true);
    return result;
  }

  /**
   * Opens one of the worker's transactions: statements carrying its id run inside it. A begin
   * given up (time limit) sends the worker a cancel, which rolls the transaction back even if
   * it started as this side gave up: nobody else would end it, and it would hold the session.
   */
  private async begin(): Promise<number> {
    const tx = this.nextTx++;
    if (isBackgroundWork()) {
      // A background transaction holds the session: it takes the background turn as a whole.
      const release = await this.background.turn(this.limits(), () => new DatabaseTimeoutError());
      this.backgroundTx.set(tx, release);
    }
    await this.call({ op: 'begin', tx }, this.limits()).catch((error: unknown) => {
      this.releaseBackground(tx);
      throw error;
    });
    if (this.options.scope) {
      const params = [this.options.scope()];
      await this.call({ op: 'query', sql: SCOPE_STATEMENT, params, tx }, this.limits()).catch(
        async (error: unknown) => {
          await this.end(tx, false).catch(() => undefined);
          throw error;
        },
      );
    }
    return tx;
  }

  private async end(tx: number, commit: boolean): Promise<void> {
    try {
      await this.call({ op: commit ? 'commit' : 'rollback', tx }, this.limits());
    } finally {
      this.releaseBackground(tx);
    }
  }

  private releaseBackground(tx: number): void {
    this.backgroundTx.get(tx)?.();
    this.backgroundTx.delete(tx);
  }

  /** TypeORM's connections: statements on the one session, its transactions the worker's own. */
  ormConnections(): OrmConnections {
    return pgliteOrmConnections({
      result: (sql, params, tx) =>
        this.call({ op: 'result', sql, params, tx }, this.limits()) as Promise<{
          rows: Record<string, unknown>[];
          rowCount: number;
        }>,
      begin: () => this.begin(),
      end: (tx, commit) => this.end(tx, commit),
    });
  }

  async close(): Promise<void> {
    try {
      if (!this.stopped) {
        this.stopped = new DatabaseUnavailableError('the embedded database is closing');
        await this.post({ op: 'close' }, { timeoutMs: CLOSE_TIMEOUT_MS });
      }
    } catch {
      // A worker that cannot close cleanly is terminated below all the same.
    } finally {
      await this.terminate();
    }
  }

  private limits(options?: QueryOptions): CallLimits {
    return { signal: options?.signal, timeoutMs: this.options.statementTimeoutMs };
  }

  private async terminate(): Promise<void> {
    this.stopped ??= new DatabaseUnavailableError('the embedded database is closed');
    await this.worker.terminate();
    this.unlock?.();
  }

  private call(message: Op, limits: CallLimits): Promise<unknown> {
    if (this.stopped) {
      return Promise.reject(this.stopped);
    }
    const lone =
      ['query', 'prepared', 'result', 'execute'].includes(message.op) &&
      !('tx' in message && message.tx !== undefined);
    if (lone && isBackgroundWork()) {
      return this.inBackgroundTurn(this.scoped(message), limits);
    }
    return this.post(this.scoped(message), limits);
  }

  /** A background statement waits its turn ({@link BackgroundLane}), within its own limits. */
  private async inBackgroundTurn(message: Op, limits: CallLimits): Promise<unknown> {
    const queuedAt = performance.now();
    const release = await this.background.turn(limits, () => new DatabaseTimeoutError());
    try {
      const left = limits.timeoutMs - (performance.now() - queuedAt);
      return await this.post(message, {
        ...limits,
        timeoutMs: limits.timeoutMs > 0 ? Math.max(1, left) : 0,
      });
    } finally {
      release();
    }
  }

  /** A statement outside a transaction carries its scope (row-level security on). */
  private scoped(message: Op): Op {
    const { scope } = this.options;
    if (!scope || !('sql' in message) || ('tx' in message && message.tx !== undefined)) {
      return message;
    }
    return { ...message, scope: scope() };
  }

  /**
   * Posts one message and waits for its answer, its time limit, or its signal. A call that
   * ends early tells the worker, which drops the work if it has not started.
   */
  private post(message: Op, { signal, timeoutMs }: CallLimits): Promise<unknown> {
    if (signal?.aborted) {
      return Promise.reject(signal.reason as Error);
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.pending.delete(id);
      };
      const giveUp = (error: Error) => {
        done();
        this.worker.postMessage({ id: 0, op: 'cancel', target: id });
        reject(error);
      };
      const onAbort = () => giveUp(signal?.reason as Error);
      this.pending.set(id, {
        resolve: (value) => {
          done();
          resolve(value);
        },
        reject: (error) => {
          done();
          reject(error);
        },
      });
      if (timeoutMs > 0) {
        timer = setTimeout(() => giveUp(new DatabaseTimeoutError()), timeoutMs);
        timer.unref();
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      if (this.unanswered++ === 0) {
        this.progressAt = performance.now();
      }
      this.worker.postMessage({ id, ...message });
    });
  }

  private settle(reply: Reply): void {
    this.unanswered = Math.max(0, this.unanswered - 1);
    this.progressAt = performance.now();
    const waiter = this.pending.get(reply.id);
    if (reply.error) {
      waiter?.reject(toError(reply.error));
    } else {
      waiter?.resolve(reply.value);
    }
  }

  /** The worker died (a WASM trap, out of memory): nobody waits forever, nothing runs after. */
  private fail(cause: Error): void {
    const unexpected = !this.stopped;
    this.stopped ??= new DatabaseUnavailableError(`the embedded database worker ${cause.message}`);
    this.unanswered = 0;
    for (const waiter of [...this.pending.values()]) {
      waiter.reject(this.stopped);
    }
    this.pending.clear();
    if (unexpected) {
      this.options.onExit?.(this);
    }
  }
}
