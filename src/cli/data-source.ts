import { createServerDataSource, serverStoreDimension } from '@app/database';
import { type DataSource } from 'typeorm';

import { ConfigModule } from '../config/config.module';
import { embedderDimension } from './embedder-dimension';

/**
 * What `npx typeorm migration:show|run|revert -d dist/src/cli/data-source.js` loads: the
 * service's own validated config (`DATABASE_URL`, `EMBEDDING_*`, `.env`), so the CLI
 * reaches the database the service uses, at the vector size the store records (or, for an
 * empty database, the one its embedder produces; never a default: a 512-d schema under
 * OpenAI embeddings is one the service refuses). Only a
 * Postgres server: embedded PGlite is one process's, migrated by the service itself at boot.
 */
async function cliDataSource(): Promise<DataSource> {
  const config = await ConfigModule.load();
  const url = config.storage.database.databaseUrl;
  if (!url) {
    throw new Error('DATABASE_URL is not set: the TypeORM CLI works against a Postgres server');
  }
  // A built store's own size first: its migrations already ran at that size.
  const dimension =
    (await serverStoreDimension(url)) ?? (await embedderDimension(config.embedding));
  return createServerDataSource(url, dimension);
}

export default cliDataSource();
