import { mkdirSync } from 'node:fs';

import { PGlite, type Results, type Transaction } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

import { lockDataDir } from '../data-dir-lock';
import { type SqlClient, type SqlExecutor } from '../interfaces/sql-client.interface';

/** Anything PGlite can run statements on: the engine itself or one of its transactions. */
type PgliteRunner = Pick<PGlite | Transaction, 'query' | 'exec'>;

/** The command tag's count, as node-postgres reports it (`affectedRows` is cumulative). */
const rowCount = (r: Results): number => r.rowCount ?? r.affectedRows ?? 0;

function executor(runner: PgliteRunner): SqlExecutor {
  return {
    query: async <T>(sql: string, params: unknown[] = []) =>
      (await runner.query<T>(sql, params)).rows,
    execute: async (sql: string, params: unknown[] = []) =>
      rowCount(await runner.query(sql, params)),
    exec: async (script: string) => {
      await runner.exec(script);
    },
  };
}

/**
 * Embedded Postgres (WASM) with pgvector, in-process. One session: PGlite queues statements
 * itself, and its transactions hold that queue, so no pool is needed (or possible).
 */
export class PgliteClient implements SqlClient {
  readonly engine = 'pglite';
  private readonly runner: SqlExecutor;

  private constructor(
    private readonly db: PGlite,
    private readonly unlock?: () => void,
  ) {
    this.runner = executor(db);
  }

  /** Opens `dataDir` (`memory://` for RAM), locking it against a second process. */
  static async open(dataDir: string, sessionSettings: string): Promise<PgliteClient> {
    let unlock: (() => void) | undefined;
    if (!dataDir.startsWith('memory://')) {
      mkdirSync(dataDir, { recursive: true });
      unlock = lockDataDir(dataDir);
    }
    try {
      const db = await PGlite.create({ dataDir, extensions: { vector } });
      await db.exec(sessionSettings); // one session: set once
      return new PgliteClient(db, unlock);
    } catch (error) {
      unlock?.();
      throw error;
    }
  }

  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]> {
    return this.runner.query<T>(sql, params);
  }

  execute(sql: string, params?: unknown[]): Promise<number> {
    return this.runner.execute(sql, params);
  }

  exec(script: string): Promise<void> {
    return this.runner.exec(script);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => work(executor(tx)));
  }

  async close(): Promise<void> {
    try {
      await this.db.close();
    } finally {
      this.unlock?.();
    }
  }
}
