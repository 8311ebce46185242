export { Database, type DatabaseOptions, type SqlExecutor } from './database';
export { DatabaseModule } from './database.module';
