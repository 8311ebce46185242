/**
 * Three projects: fast unit specs next to the code; e2e suites that boot the real app on
 * embedded PGlite; and the database-backed e2e suites again on a real Postgres server with
 * pgvector (the production path), so a driver difference fails a test, not a deployment.
 */
const swc = ['@swc/jest', JSON.parse(require('fs').readFileSync(`${__dirname}/.swcrc`, 'utf8'))];
// A new in-memory PGlite loads an initdb snapshot instead of running initdb (see the file).
const moduleNameMapper = {
  '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src',
  '^@electric-sql/pglite$': '<rootDir>/test/support/pglite-initdb-snapshot.cjs',
};
// jose 6 is ESM-only: Node ≥ 20.19 `require`s it natively, jest needs it compiled to CommonJS.
const shared = {
  rootDir: __dirname,
  transform: { '^.+\\.ts$': swc, '/node_modules/jose/.+\\.js$': swc },
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  moduleNameMapper,
  testEnvironment: 'node',
  // Keeps one compiled copy of the WASM the worker threads load alive (see the file).
  setupFiles: ['<rootDir>/test/support/wasm-code-cache.ts'],
};

/** Suites that need a Postgres server: several processes share one database (PGlite is one). */
const SERVER_ONLY_SUITES = [
  'multi-replica',
  'typeorm-data-source',
  'advisory-locks',
  'reembed-live',
].map(
  (name) => `<rootDir>/test/${name}.e2e-spec.ts`,
);

/** The suites whose behaviour depends on the database engine. */
const DATABASE_SUITES = [
  'database',
  'database-outage',
  'database-cancel',
  'vector-store',
  'retrieval',
  'openai-embedder',
  'context',
  'chat',
  'auth',
  'podium-webhooks',
  'webhook-state',
  'conversation-memory',
  'tracing',
  'context-explain',
  'large-contact-indexes',
  'tenant-isolation',
  'typeorm-runtime',
  'local-podium-contacts',
  'local-contact-cache',
  'erasure',
  'erasure-residue',
  'telemetry-ids',
  'row-security',
  'row-security-scope',
  'crash-recovery',
  'calls',
  'calls-tenants',
  'call-stream',
  'embedding-model',
  'wide-vectors',
  'reembed',
  'message-ids-per-location',
  'isolation-redteam',
  'isolation-redteam-scores',
  'erasure-redteam',
  'erasure-redteam-crash',
].map((name) => `<rootDir>/test/${name}.e2e-spec.ts`);

module.exports = {
  // Booting an e2e app loads PGlite and the embedding model: seconds, not milliseconds.
  testTimeout: 120000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{src,libs}/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      testPathIgnorePatterns: SERVER_ONLY_SUITES,
    },
    {
      ...shared,
      displayName: 'e2e-postgres',
      testMatch: [...DATABASE_SUITES, ...SERVER_ONLY_SUITES],
      setupFiles: [...shared.setupFiles, '<rootDir>/test/support/use-postgres.ts'],
      globalSetup: '<rootDir>/test/support/postgres-global-setup.ts',
      globalTeardown: '<rootDir>/test/support/postgres-global-teardown.ts',
    },
  ],
};
