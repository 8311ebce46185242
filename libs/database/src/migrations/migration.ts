import { type SqlExecutor } from '../interfaces/sql-client.interface';

/**
 * One forward-only schema step. `name` ends in its 13-digit timestamp and is what the
 * `migrations` table records (the layout TypeORM created for 0.1.0, kept so databases
 * migrated then are recognised). A migration runs in its own transaction.
 */
export interface Migration {
  readonly name: string;
  up(tx: SqlExecutor): Promise<void>;
  /** Undoes `up` where that loses nothing (an index, say); absent: forward-only. */
  down?(tx: SqlExecutor): Promise<void>;
}
