export { Database, type DatabaseOptions } from './database';
export { DatabaseModule } from './database.module';
