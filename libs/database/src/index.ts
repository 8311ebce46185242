export {
  Database,
  type DatabaseHealth,
  type DatabaseOptions,
  DEFAULT_DATABASE_OPTIONS,
} from './database';
export { type Leadership, type LockScope, replicaGone } from './advisory-locks';
export { DatabaseModule } from './database.module';
export { createServerDataSource, serverStoreDimension } from './server-data-source';
export * from './entities/all-entities';
export { DatabaseTimeoutError, DatabaseUnavailableError, classifyDatabaseError } from './errors';
export { type SqlClient, type SqlExecutor } from './interfaces/sql-client.interface';
export { type DatabaseScope, withDatabaseScope } from './row-security/database-scope';
