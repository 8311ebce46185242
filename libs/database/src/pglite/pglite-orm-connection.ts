import { EventEmitter } from 'node:events';

import {
  type OrmConnections,
  type PgShapedConnection,
  type PgShapedResult,
} from '../interfaces/orm-pool.interface';

/** What the connection needs of the worker client: statements, and its transaction ids. */
export interface PgliteSessionPort {
  result(sql: string, params: unknown[], tx?: number): Promise<Omit<PgShapedResult, 'command'>>;
  begin(): Promise<number>;
  end(tx: number, commit: boolean): Promise<void>;
}

const BEGIN = /^\s*(START\s+TRANSACTION|BEGIN)\b/i;
const COMMIT = /^\s*(COMMIT|END)\s*;?\s*$/i;
// `ROLLBACK TO SAVEPOINT` stays inside the transaction: only a bare ROLLBACK ends it.
const ROLLBACK = /^\s*(ROLLBACK|ABORT)\s*;?\s*$/i;

const done = (command: string): PgShapedResult => ({ rows: [], rowCount: 0, command });

/**
 * A pg-shaped connection over the PGlite worker, for TypeORM. The worker has one session, so
 * a TypeORM transaction cannot be a plain `BEGIN` on it (concurrent autocommit calls would
 * run inside it): `START TRANSACTION` opens one of the worker's own transactions (its id is
 * held here) and every statement until `COMMIT`/`ROLLBACK` runs in it, while other callers
 * wait at the worker's queue, exactly as with {@link PgliteClient.transaction}.
 */
export class PgliteOrmConnection extends EventEmitter implements PgShapedConnection {
  private tx?: number;

  constructor(private readonly port: PgliteSessionPort) {
    super();
  }

  async query(sql: string, params: unknown[] = []): Promise<PgShapedResult> {
    if (BEGIN.test(sql) && this.tx === undefined) {
      this.tx = await this.port.begin();
      return done('BEGIN');
    }
    if (this.tx !== undefined && (COMMIT.test(sql) || ROLLBACK.test(sql))) {
      const tx = this.tx;
      this.tx = undefined;
      const commit = COMMIT.test(sql);
      await this.port.end(tx, commit);
      return done(commit ? 'COMMIT' : 'ROLLBACK');
    }
    const result = await this.port.result(sql, params, this.tx);
    return { ...result, command: commandOf(sql) };
  }

  /** Back to the pool: a transaction left open (a crashed caller) is rolled back, never kept. */
  async release(): Promise<void> {
    if (this.tx !== undefined) {
      const tx = this.tx;
      this.tx = undefined;
      await this.port.end(tx, false).catch(() => undefined);
    }
  }
}

/** The statement's verb, as node-postgres reports it in `command` (`WITH …` reads as such). */
function commandOf(sql: string): string {
  return /^\s*([A-Za-z]+)/.exec(sql)?.[1]?.toUpperCase() ?? '';
}

/** TypeORM's pool over the worker: every `connect` is a new connection on the one session. */
export function pgliteOrmConnections(port: PgliteSessionPort): OrmConnections {
  return {
    connect(callback) {
      const connection = new PgliteOrmConnection(port);
      callback(undefined, connection, () => void connection.release());
    },
  };
}
