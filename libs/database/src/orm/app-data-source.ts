import { DataSource, type QueryRunner } from 'typeorm';

import { allEntities } from '../entities/all-entities';
import { classifyDatabaseError } from '../errors';
import {
  type OrmConnections,
  type PgShapedConnectCallback,
} from '../interfaces/orm-pool.interface';

/**
 * The app's TypeORM DataSource, over the SQL client's own connections on either engine.
 * TypeORM's Postgres driver takes a pg-shaped module (`driver`) and calls only
 * `new Pool(options)`, `pool.connect(callback)`, `pool.on('error')` and `pool.end()`: this
 * Pool lends the current client's connections (a server pool, or the PGlite worker's
 * session), looked up at every connect so an embedded worker replaced after a crash is
 * used at once, and it never opens or ends anything itself: the {@link Database} owns the
 * connections. No extension install, no synchronize: the migrator applies the schema under
 * its advisory lock before this opens. A statement fails as it would through the SQL port:
 * an outage or a timeout is `database_unavailable` / `database_timeout`, not TypeORM's
 * `QueryFailedError` (see {@link failingAsThePort}).
 */
export function createAppDataSource(connections: () => OrmConnections): DataSource {
  const pool = {
    connect(callback: PgShapedConnectCallback): void {
      let source: OrmConnections;
      try {
        source = connections();
      } catch (error) {
        callback(error as Error, undefined, () => undefined);
        return;
      }
      source.connect(callback);
    },
    // The owning client already handles its pool's idle-connection errors.
    on: () => pool,
    end: (callback?: (error?: Error) => void) => callback?.(),
  };
  const dataSource = new DataSource({
    type: 'postgres',
    driver: { Pool: SharedPool(pool) },
    entities: [],
    migrationsTableName: 'migrations',
    installExtensions: false,
    synchronize: false,
    migrationsRun: false,
  });
  const { driver } = dataSource;
  const createQueryRunner = driver.createQueryRunner.bind(driver);
  driver.createQueryRunner = (mode) => failingAsThePort(createQueryRunner(mode));
  return dataSource;
}

/**
 * Every statement of a query runner (repositories, query builders and transactions all run
 * theirs through `query`, connecting first) rejects with what the SQL port would reject:
 * TypeORM wraps the connection's error in a `QueryFailedError`, which the exception filter
 * would answer with a 500 and the webhook worker would log as a bug, not an outage.
 */
function failingAsThePort(runner: QueryRunner): QueryRunner {
  const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
  runner.query = (async (...args: unknown[]) => {
    try {
      return await query(...args);
    } catch (error) {
      throw classifyDatabaseError(error);
    }
  }) as QueryRunner['query'];
  return runner;
}

/** A constructor TypeORM can `new` that answers the one shared pool facade. */
function SharedPool<T extends object>(pool: T): new () => T {
  return class {
    constructor() {
      return pool;
    }
  } as new () => T;
}

/** Opens `dataSource` for a database of this dimension (a no-op once it is open). */
export async function initializeAppDataSource(
  dataSource: DataSource,
  dimension: number,
): Promise<void> {
  if (dataSource.isInitialized) {
    return;
  }
  dataSource.setOptions({ entities: allEntities(dimension) });
  await dataSource.initialize();
}
