import { mkdirSync } from 'node:fs';

import { PGlite } from '@electric-sql/pglite';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { vector } from '@electric-sql/pglite-pgvector';
import { DataSource, type MigrationInterface } from 'typeorm';

import { lockDataDir } from './data-dir-lock';

/** Candidates an HNSW scan considers; it also caps the rows one unfiltered scan returns. */
export const HNSW_EF_SEARCH = 100;

export interface PgConnectionOptions {
  dataDir: string;
  databaseUrl?: string;
  migrations: Array<new () => MigrationInterface>;
}

export interface PgConnection {
  dataSource: DataSource;
  /** The embedded engine, when there is one; closed after the data source. */
  embedded?: PGlite;
  /** Releases the embedded data dir's process lock. */
  unlock?: () => void;
}

/**
 * A TypeORM data source over a real Postgres server (`DATABASE_URL`) or embedded PGlite with
 * pgvector. PGlite runs through its own node-postgres adapter, which only works with a pool
 * of one connection (larger pools silently return empty results); PGlite is single-threaded
 * anyway, so queries queue either way.
 */
export async function openPgConnection(options: PgConnectionOptions): Promise<PgConnection> {
  const common = { type: 'postgres' as const, synchronize: false, migrationsRun: false };
  if (options.databaseUrl) {
    const dataSource = new DataSource({
      ...common,
      url: options.databaseUrl,
      migrations: options.migrations,
      // HNSW returns at most ef_search rows (default 40); top_k and pool_k go up to 100.
      extra: { max: 10, options: `-c hnsw.ef_search=${HNSW_EF_SEARCH}` },
    });
    return { dataSource: await dataSource.initialize() };
  }
  let unlock: (() => void) | undefined;
  if (!options.dataDir.startsWith('memory://')) {
    mkdirSync(options.dataDir, { recursive: true });
    unlock = lockDataDir(options.dataDir);
  }
  try {
    const embedded = await PGlite.create({ dataDir: options.dataDir, extensions: { vector } });
    const dataSource = new DataSource({
      ...common,
      migrations: options.migrations,
      extra: { ...createPgConfig(embedded), max: 1 },
    });
    await embedded.exec(`SET hnsw.ef_search = ${HNSW_EF_SEARCH}`); // one session: set once
    return { dataSource: await dataSource.initialize(), embedded, unlock };
  } catch (error) {
    unlock?.();
    throw error;
  }
}
