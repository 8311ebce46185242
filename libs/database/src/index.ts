export {
  Database,
  type DatabaseHealth,
  type DatabaseOptions,
  DEFAULT_DATABASE_OPTIONS,
} from './database';
export { type Leadership, type LockScope, replicaGone } from './advisory-locks';
export { DatabaseModule } from './database.module';
export { readStoreModel, type StoreModel } from './embedding-model-record';
export {
  FOLLOW_INTERVAL_MS,
  isVectorSizeMismatch,
  StoreModelFollower,
} from './reembed/store-model-follower';
export { assertIndexableDimension, vectorColumnType } from './vector-column';
export { createServerDataSource, serverStoreDimension } from './server-data-source';
export * from './entities/all-entities';
export { DatabaseTimeoutError, DatabaseUnavailableError, classifyDatabaseError } from './errors';
export { type SqlClient, type SqlExecutor } from './interfaces/sql-client.interface';
export {
  currentScopeSetting,
  type DatabaseScope,
  withDatabaseScope,
} from './row-security/database-scope';
