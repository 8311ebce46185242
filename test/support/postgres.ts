import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Database, type DatabaseOptions } from '@app/database';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { Client } from 'pg';

import { seedDataDir } from './pglite-data-dir';

export { type OwnServer, startOwnServer } from './postgres-server';

/**
 * Which engine this Jest project runs the database-backed suites on: `pglite` (embedded, the
 * default) or `postgres` (the `e2e-postgres` project: a real server with pgvector). The same
 * test files run on both, so a driver difference fails a test rather than a deployment.
 */
export const TEST_ENGINE: 'pglite' | 'postgres' =
  process.env.CB_TEST_ENGINE === 'postgres' ? 'postgres' : 'pglite';

/** The throwaway server's admin URL (set by .ci/run, `npm run db:test-server`, or globalSetup). */
export function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) {
    throw new Error(
      'TEST_DATABASE_URL is not set: the e2e-postgres project starts a server in its globalSetup',
    );
  }
  return url;
}

/** `url` with its database name replaced. */
export function withDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
}

async function admin<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database on the server; `drop()` removes it (and cuts its connections). */
export interface ServerDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createServerDatabase(adminUrl = serverUrl()): Promise<ServerDatabase> {
  const name = `cb_test_${randomBytes(6).toString('hex')}`;
  await admin(adminUrl, (c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: withDatabase(adminUrl, name),
    drop: () =>
      admin(adminUrl, (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

/**
 * Env that points an app at a fresh database on this project's engine: nothing on PGlite
 * (TEST_ENV's in-memory dir), a new server database on Postgres. `release` drops it.
 */
export async function engineEnv(): Promise<{
  env: Record<string, string>;
  release(): Promise<void>;
}> {
  if (TEST_ENGINE === 'pglite') {
    return { env: {}, release: () => Promise.resolve() };
  }
  const database = await createServerDatabase();
  return { env: { DATABASE_URL: database.url }, release: () => database.drop() };
}

/** A {@link Database} on this project's engine, on a fresh database; `close` drops it. */
export async function openEngineDatabase(
  options: Partial<DatabaseOptions> = {},
): Promise<{ database: Database; close(): Promise<void> }> {
  const { env, release } = await engineEnv();
  const database = new Database({
    dataDir: 'memory://',
    databaseUrl: env.DATABASE_URL,
    ...options,
  });
  return {
    database,
    close: async () => {
      await database.close();
      await release();
    },
  };
}

/**
 * A database that outlives one app, for restart tests: a data dir on disk on PGlite, a
 * server database on Postgres. `release` deletes it.
 */
export async function persistentEngineEnv(): Promise<{
  env: Record<string, string>;
  release(): Promise<void>;
}> {
  if (TEST_ENGINE === 'postgres') {
    return engineEnv();
  }
  // An empty initdb'd cluster, not an empty dir: the first open skips initdb (see the file).
  const dataDir = seedDataDir(mkdtempSync(join(tmpdir(), 'cb-db-')));
  return {
    env: { DATA_DIR: dataDir },
    release: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
  };
}

/**
 * A database on this project's engine that a test can prepare with raw SQL before the
 * service opens it (e.g. the previous release's schema): a data dir on PGlite, a server
 * database on Postgres.
 */
export async function preparedEngineDatabase(): Promise<{
  options: DatabaseOptions;
  run(script: string): Promise<void>;
  release(): Promise<void>;
}> {
  const { env, release } = await persistentEngineEnv();
  const options: DatabaseOptions = {
    dataDir: env.DATA_DIR ?? 'memory://',
    databaseUrl: env.DATABASE_URL,
  };
  const run = async (script: string) => {
    if (options.databaseUrl) {
      await admin(options.databaseUrl, (c) => c.query(script));
      return;
    }
    const db = await PGlite.create({ dataDir: options.dataDir, extensions: { vector } });
    try {
      await db.exec(script);
    } finally {
      await db.close();
    }
  };
  return { options, run, release };
}
