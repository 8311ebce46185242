import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { schemaMigrations } from '../libs/database/src/migrations/all-migrations';
import { type MigrateReport } from '../src/cli/migrate.command';
import { retryOnNativeCrash, WASM_CHILD_FLAGS } from './support/native-crash';

const run = promisify(execFile);

/**
 * `npx context-bridge migrate` (the real CLI) on an embedded data dir: the first run applies
 * every step in order and prints them, a second run applies nothing and lists the same
 * history.
 */
describe('npx context-bridge migrate', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'cb-migrate-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const migrate = async (dataDir: string): Promise<MigrateReport> => {
    const cli = [...WASM_CHILD_FLAGS, 'bin/context-bridge.js', 'migrate'];
    const { stdout } = await run(process.execPath, cli, {
      cwd: join(__dirname, '..'),
      // One embedder worker: the command needs the model's dimension, not two copies of it.
      env: {
        PATH: process.env.PATH,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'error',
        EMBEDDING_WORKERS: '1',
      },
      // A hung child fails this run with its signal (SIGTERM, no crash) before Jest's timeout.
      timeout: 140_000,
    });
    return JSON.parse(stdout) as MigrateReport;
  };

  // Two cold CLI boots (PGlite, the embedding model, every migration): a loaded box needs
  // more than Jest's default for both, and a run again after a native crash.
  it('applies the pending steps once and prints what ran', async () => {
    const names = schemaMigrations(4).map((m) => m.name);

    // A crash mid-migration leaves a half-migrated dir: its run again starts on a new one.
    const dataDir = await retryOnNativeCrash('migrate, first run', async (attempt) => {
      const dir = join(root, `db-${attempt}`);
      const first = await migrate(dir);
      expect(first).toEqual({ engine: 'pglite', applied: names, history: names });
      return dir;
    });

    const second = await retryOnNativeCrash('migrate, second run', () => migrate(dataDir));
    expect(second).toEqual({ engine: 'pglite', applied: [], history: names });
  }, 300_000);
});
