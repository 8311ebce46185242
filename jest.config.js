/** Two projects: fast unit specs next to the code, and e2e suites that boot the real app. */
const swc = ['@swc/jest', JSON.parse(require('fs').readFileSync(`${__dirname}/.swcrc`, 'utf8'))];
const moduleNameMapper = { '^@app/([a-z-]+)$': '<rootDir>/libs/$1/src' };
const shared = { rootDir: __dirname, transform: { '^.+\\.ts$': swc }, moduleNameMapper, testEnvironment: 'node' };

module.exports = {
  // Booting an e2e app loads PGlite and the embedding model: seconds, not milliseconds.
  testTimeout: 120000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/{src,libs}/**/*.spec.ts'] },
    { ...shared, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'] },
  ],
};
