import { installPostgresIfMissing, startOwnServer } from './postgres-server';

/**
 * Jest globalSetup of the `e2e-postgres` project: uses the server in TEST_DATABASE_URL (CI
 * and `npm run db:test-server` start one), else starts a throwaway cluster for this run,
 * installing Postgres and pgvector first when they are missing.
 */
export default function setup(): void {
  if (process.env.TEST_DATABASE_URL) {
    return;
  }
  installPostgresIfMissing();
  const server = startOwnServer();
  process.env.TEST_DATABASE_URL = server.url;
  (globalThis as { __cbPostgres?: { destroy(): void } }).__cbPostgres = server;
}
