import { Client } from 'pg';
import { DataSource } from 'typeorm';

import { storedDimension } from './embedding-model-record';
import { allEntities } from './entities/all-entities';
import { schemaMigrations } from './migrations/all-migrations';
import { asTypeOrmMigration } from './migrations/typeorm-migrations';

/**
 * A TypeORM DataSource over a Postgres server, with every entity and every schema step as a
 * migration class. `npx typeorm migration:show -d dist/src/cli/data-source.js` lists what a
 * boot applied; `migration:run` applies the pending steps under the boot migrator's advisory
 * lock (the service itself applies them at boot, so running the CLI is optional).
 */
export function createServerDataSource(url: string, dimension: number): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    entities: allEntities(dimension),
    migrations: schemaMigrations(dimension).map(asTypeOrmMigration),
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    // The migrations create the extensions they need; the app role may not be a superuser.
    installExtensions: false,
    synchronize: false,
    applicationName: 'context-bridge-cli',
  });
}

/**
 * The vector size the store at `url` was built with (its model record, else its column
 * type), or `null` for an empty database: the CLI's data source migrates at the store's size,
 * whatever the embedder config says (the boot refuses a mismatch).
 */
export async function serverStoreDimension(url: string): Promise<number | null> {
  const client = new Client({
    connectionString: url,
    application_name: 'context-bridge-cli',
    connectionTimeoutMillis: 5_000,
  });
  await client.connect();
  try {
    return await storedDimension({
      query: async <T>(sql: string, params?: unknown[]) =>
        (await client.query(sql, params)).rows as T[],
    });
  } finally {
    await client.end();
  }
}
