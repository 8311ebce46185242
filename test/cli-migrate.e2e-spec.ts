import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { schemaMigrations } from '../libs/database/src/migrations/all-migrations';
import { type MigrateReport } from '../src/cli/migrate.command';

const run = promisify(execFile);

/**
 * `npx context-bridge migrate` (the real CLI) on an embedded data dir: the first run applies
 * every step in order and prints them, a second run applies nothing and lists the same
 * history.
 */
describe('npx context-bridge migrate', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'cb-migrate-')), 'db');
  });
  afterAll(() => rmSync(join(dataDir, '..'), { recursive: true, force: true }));

  const migrate = async (): Promise<MigrateReport> => {
    const { stdout } = await run(process.execPath, ['bin/context-bridge.js', 'migrate'], {
      cwd: join(__dirname, '..'),
      env: { PATH: process.env.PATH, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    });
    return JSON.parse(stdout) as MigrateReport;
  };

  it('applies the pending steps once and prints what ran', async () => {
    const names = schemaMigrations(4).map((m) => m.name);

    const first = await migrate();
    expect(first).toEqual({ engine: 'pglite', applied: names, history: names });

    const second = await migrate();
    expect(second).toEqual({ engine: 'pglite', applied: [], history: names });
  });
});
