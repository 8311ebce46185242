/** What node-postgres answers for one statement: the part TypeORM's query runner reads. */
export interface PgShapedResult {
  rows: Record<string, unknown>[];
  rowCount: number;
  /** `UPDATE`/`DELETE` make TypeORM answer `[rows, rowCount]`, as with `pg`. */
  command: string;
}

/** One connection as TypeORM's Postgres query runner uses it (a `pg.PoolClient` subset). */
export interface PgShapedConnection {
  query(sql: string, params?: unknown[]): Promise<PgShapedResult>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** `pool.connect`'s callback, as pg-pool calls it: `release(error)` discards the connection. */
export type PgShapedConnectCallback = (
  error: Error | undefined,
  connection: PgShapedConnection | undefined,
  release: (error?: unknown) => void,
) => void;

/**
 * How a SQL client lends TypeORM connections: the pg-pool `connect(callback)` its Postgres
 * driver calls. The client owns the connections; TypeORM never opens or ends a pool.
 */
export interface OrmConnections {
  connect(callback: PgShapedConnectCallback): void;
}
