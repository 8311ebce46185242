import { createServerDataSource } from '@app/database';
import { type DataSource } from 'typeorm';

import { ConfigModule } from '../config/config.module';

/** The local embedder's dimension: what a database built by a default install holds. */
const DEFAULT_DIMENSION = 512;

/**
 * What `npx typeorm migration:show|run|revert -d dist/src/cli/data-source.js` loads: the
 * service's own validated config (`DATABASE_URL`, `EMBEDDING_DIMENSION`, `.env`), so the CLI
 * reaches the database the service uses. Only a Postgres server: embedded PGlite is one
 * process's, migrated by the service itself at boot.
 */
async function cliDataSource(): Promise<DataSource> {
  const config = await ConfigModule.load();
  const url = config.storage.database.databaseUrl;
  if (!url) {
    throw new Error('DATABASE_URL is not set: the TypeORM CLI works against a Postgres server');
  }
  return createServerDataSource(url, config.embedding.dimension ?? DEFAULT_DIMENSION);
}

export default cliDataSource();
