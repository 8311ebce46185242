export { DATABASE_DEFAULTS, Database, type DatabaseHealth, type DatabaseOptions } from './database';
export { DatabaseModule } from './database.module';
export { DatabaseTimeoutError, DatabaseUnavailableError, classifyDatabaseError } from './errors';
export { type SqlClient, type SqlExecutor } from './interfaces/sql-client.interface';
