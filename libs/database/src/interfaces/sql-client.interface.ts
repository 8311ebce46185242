import { type OrmConnections } from './orm-pool.interface';

/** How a caller may stop a statement early. */
export interface QueryOptions {
  /**
   * Aborting rejects the call at once with the signal's reason and stops the statement:
   * Postgres cancels it on the server (its connection goes back to the pool), PGlite drops
   * it if it has not started yet.
   */
  signal?: AbortSignal;
}

/**
 * The one query layer every raw statement goes through. Drivers disagree on result shapes
 * (TypeORM's Postgres driver answers `UPDATE … RETURNING` with `[rows, rowCount]`, PGlite
 * with rows), so callers never see a driver's result: rows, or a row count.
 */
export interface SqlExecutor {
  /** One parameterised statement; its rows (those of `RETURNING` for writes). */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** One parameterised statement; the number of rows it inserted, updated or deleted. */
  execute(sql: string, params?: unknown[]): Promise<number>;
  /** A script of several statements without parameters (migrations). */
  exec(script: string): Promise<void>;
}

/** A connection (embedded PGlite or a server pool) behind the {@link SqlExecutor} port. */
export interface SqlClient extends SqlExecutor {
  /** Which engine answers: logs and health messages. */
  readonly engine: 'pglite' | 'postgres';
  /** One parameterised statement outside any transaction, which `options.signal` may stop. */
  query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<T[]>;
  /**
   * A hot read (no writes, outside any transaction) as a named statement kept per session:
   * parsed and planned once, then only bound and executed. Same text, same statement, so
   * the text must carry values as parameters, never inline.
   */
  queryPrepared<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<T[]>;
  /** Runs `work` in one transaction; it commits when `work` resolves, else rolls back. */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Runs `work` on one connection outside a transaction, for maintenance that must (an index
   * built CONCURRENTLY) with session settings of its own; the connection is discarded after,
   * so no setting leaks into the pool.
   */
  session<T>(work: (session: SqlExecutor) => Promise<T>): Promise<T>;
  /** Connections for TypeORM's Postgres driver, from this client's own pool or session. */
  ormConnections(): OrmConnections;
  close(): Promise<void>;
  /**
   * How long the engine has had work and answered nothing, in ms (0 when idle). Only an
   * engine that cannot cancel a statement says (PGlite); a server enforces its own timeout.
   */
  stalledMs?(): number;
}
