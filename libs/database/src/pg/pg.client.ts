import { createHash } from 'node:crypto';

import { Logger } from '@nestjs/common';
import { Pool, type PoolClient, type QueryConfig, type QueryResult } from 'pg';

import { classifyDatabaseError, isTransactionConflict } from '../errors';
import { type OrmConnections } from '../interfaces/orm-pool.interface';
import {
  type QueryOptions,
  type SqlClient,
  type SqlExecutor,
} from '../interfaces/sql-client.interface';
import { CancellableStatements } from './pg-cancel';
import { scopedOrmConnection, scopedQuery } from './scoped-query';

/** How the service talks to a Postgres server (`DATABASE_URL`). */
export interface PgPoolOptions {
  url: string;
  /** Connections per process (`DATABASE_POOL_MAX`). */
  poolMax: number;
  /** Server-side cap on one statement (`DATABASE_STATEMENT_TIMEOUT_MS`). */
  statementTimeoutMs: number;
  /** Wait for a connection (new or from the pool) before failing (`DATABASE_CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs: number;
  /** `-c name=value` settings for every session (e.g. hnsw.ef_search). */
  sessionSettings: Record<string, string | number>;
  /**
   * Row-level security on: the `app.locations` setting for the work running now, sent with
   * each statement and transaction for its own transaction (see {@link scopedQuery}).
   */
  scope?: () => string;
}

type Queryable = Pick<PoolClient, 'query'>;

/** The rows of exactly one statement: a multi-statement string here is a bug, not data. */
function single(result: QueryResult | QueryResult[]): QueryResult {
  if (Array.isArray(result)) {
    throw new Error('query()/execute() take one statement; use exec() for scripts');
  }
  return result;
}

/** Runs of a transaction the server aborted to break a deadlock, before the client hears. */
const CONFLICT_ATTEMPTS = 4;

async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw classifyDatabaseError(error);
  }
}

/** How a statement reaches its connection: as it is, or scoped (see {@link scopedQuery}). */
type Send = (target: Queryable, config: QueryConfig) => Promise<QueryResult>;

const plain: Send = (target, config) => target.query(config);

/**
 * Checks a connection out of the pool for a caller's own use. One the server ends while it is
 * out (`idle_in_transaction_session_timeout`, `pg_terminate_backend`, a restart) emits 'error'
 * on the client, and pg's pool listens only to idle ones: unheard, that ended the process.
 * Here the statement in flight, or the next, fails instead, and the pool drops the connection.
 */
async function checkout(
  pool: Pool,
): Promise<{ client: PoolClient; release(destroy: boolean): void }> {
  const client = await run(() => pool.connect());
  const lost = () => undefined;
  client.on('error', lost);
  return {
    client,
    release: (destroy) => {
      client.removeListener('error', lost);
      client.release(destroy);
    },
  };
}

function executor(target: Queryable, send: Send = plain, setting?: () => string): SqlExecutor {
  return {
    query: <T>(sql: string, params: unknown[] = []) =>
      run(async () => single(await send(target, { text: sql, values: params })).rows as T[]),
    execute: (sql: string, params: unknown[] = []) =>
      run(async () => single(await send(target, { text: sql, values: params })).rowCount ?? 0),
    exec: (script: string) =>
      run(async () => {
        // No parameters: the simple protocol runs every statement, in one implicit
        // transaction, which a leading set_config scopes.
        await target.query(setting ? `${scopeScript(setting())}${script}` : script);
      }),
  };
}

/** The scope statement as the first statement of a script (a literal: scripts take none). */
function scopeScript(setting: string): string {
  return `SELECT set_config('app.locations', '${setting.replace(/'/g, "''")}', true);\n`;
}

/**
 * A pooled connection to a Postgres server (node-postgres). The pool reconnects on demand,
 * so after an outage the next statement simply works; while the server is away statements
 * fail fast with `database_unavailable` instead of hanging. A read given a signal is
 * cancelled on the server when it aborts (see {@link CancellableStatements}).
 */
export class PgClient implements SqlClient {
  readonly engine = 'postgres';
  private readonly logger = new Logger(PgClient.name);
  private readonly pool: Pool;
  private readonly runner: SqlExecutor;
  private readonly cancellable: CancellableStatements;
  private readonly scope?: () => string;
  private readonly send: Send;

  constructor(options: PgPoolOptions) {
    const settings = {
      ...options.sessionSettings,
      statement_timeout: options.statementTimeoutMs,
    };
    this.pool = new Pool({
      connectionString: options.url,
      max: options.poolMax,
      connectionTimeoutMillis: options.connectTimeoutMs,
      idleTimeoutMillis: 30_000,
      application_name: 'context-bridge',
      options: Object.entries(settings)
        .map(([name, value]) => `-c ${name}=${value}`)
        .join(' '),
    });
    // An idle connection that dies (server restart) is reported here; without a listener
    // the process would crash. The pool drops it and opens a new one on the next query.
    this.pool.on('error', (error) => {
      this.logger.warn(`idle database connection lost: ${describeConnectionError(error)}`);
    });
    this.scope = options.scope;
    this.send = this.scope ? pooled(this.scope) : plain;
    this.runner = executor(this.pool, this.send, this.scope);
    this.cancellable = new CancellableStatements(this.pool, {
      url: options.url,
      graceMs: options.connectTimeoutMs,
    });
  }

  /** Connects once, so a wrong URL or a down server fails the start-up with its reason. */
  async connect(): Promise<void> {
    await this.query('SELECT 1');
  }

  query<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<T[]> {
    return options?.signal
      ? this.cancellableRows<T>({ text: sql, values: params }, options.signal)
      : this.runner.query<T>(sql, params);
  }

  /**
   * node-postgres keeps a named statement per connection: the first use on a connection
   * parses it, later ones only bind and execute.
   */
  queryPrepared<T = Record<string, unknown>>(
    sql: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ): Promise<T[]> {
    const statement = { name: statementName(sql), text: sql, values: params };
    return options?.signal
      ? this.cancellableRows<T>(statement, options.signal)
      : run(async () => single(await this.send(this.pool, statement)).rows as T[]);
  }

  execute(sql: string, params?: unknown[]): Promise<number> {
    return this.runner.execute(sql, params);
  }

  exec(script: string): Promise<void> {
    return this.runner.exec(script);
  }

  /**
   * Runs `work` in one transaction. A deadlock or serialization failure (the server rolled
   * this transaction back to let a concurrent one through) runs it again, a few times after a
   * short random pause; `work` must be safe to re-run, as any transaction body is.
   */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.transactionOnce(work);
      } catch (error) {
        if (attempt >= CONFLICT_ATTEMPTS || !isTransactionConflict(error)) {
          throw classifyDatabaseError(error);
        }
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
      }
    }
  }

  private async transactionOnce<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const { client, release } = await checkout(this.pool);
    let broken = false;
    try {
      // Scoped, BEGIN keeps the setting to the transaction's end (see scopedQuery).
      await run(() =>
        this.scope ? scopedQuery(client, { text: 'BEGIN' }, this.scope()) : client.query('BEGIN'),
      );
      const result = await work(executor(client));
      await run(() => client.query('COMMIT'));
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw error;
    } finally {
      // A connection whose ROLLBACK failed is in an unknown state: destroy, never reuse.
      release(broken);
    }
  }

  async session<T>(work: (session: SqlExecutor) => Promise<T>): Promise<T> {
    const { client, release } = await checkout(this.pool);
    try {
      if (this.scope) {
        // For the session (no transaction may wrap its work): it is discarded after.
        await run(() =>
          client.query(`SELECT set_config('app.locations', $1, false)`, [this.scope?.()]),
        );
      }
      return await work(executor(client));
    } finally {
      release(true);
    }
  }

  /**
   * TypeORM's connections come from this same pool (one pool per process, one
   * `DATABASE_POOL_MAX`); TypeORM releases them, the pool's owner ends it.
   */
  ormConnections(): OrmConnections {
    return {
      connect: (callback) => {
        const scope = this.scope;
        this.pool.connect((error, client, release) =>
          callback(
            error,
            client && scope ? scopedOrmConnection(client, scope) : client,
            release as (error?: unknown) => void,
          ),
        );
      },
    };
  }

  async close(): Promise<void> {
    await this.pool.end();
    await this.cancellable.close();
  }

  private cancellableRows<T>(statement: QueryConfig, signal: AbortSignal): Promise<T[]> {
    return run(
      async () => single(await this.cancellable.run(statement, signal, this.send)).rows as T[],
    );
  }
}

/**
 * Scoped statements straight from the pool: a connection for the one round trip, destroyed
 * after an error, as `pool.query` does.
 */
function pooled(setting: () => string): Send {
  return async (target, config) => {
    const value = setting();
    if (!(target instanceof Pool)) {
      return scopedQuery(target, config, value);
    }
    const client = await target.connect();
    try {
      const result = await scopedQuery(client, config, value);
      client.release();
      return result;
    } catch (error) {
      client.release(error as Error);
      throw error;
    }
  };
}

const statementNames = new Map<string, string>();

/** A name per statement text: two texts never share a name (node-postgres refuses that). */
function statementName(sql: string): string {
  let name = statementNames.get(sql);
  if (!name) {
    name = `cb_${createHash('sha1').update(sql).digest('hex').slice(0, 24)}`;
    if (statementNames.size < 256) {
      statementNames.set(sql, name);
    }
  }
  return name;
}

/** The error class only: a driver message may quote a statement or its values. */
function describeConnectionError(error: Error & { code?: string }): string {
  return error.code ?? error.name;
}
