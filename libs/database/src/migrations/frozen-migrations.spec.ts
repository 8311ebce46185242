import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { schemaMigrations } from './all-migrations';

/**
 * Committed migrations are frozen: a database that applied a step never applies it again, so
 * an edit reaches only new installs and two databases of one version would differ. Each
 * step's file (and the code it runs from outside the folder) is locked by its sha256 in
 * `migrations.lock.json`; `node scripts/migrations-lock.js` adds new steps and never changes
 * an entry.
 */
const ROOT = join(__dirname, '../../../..');
const DIR = 'libs/database/src/migrations';
const lock = JSON.parse(readFileSync(join(__dirname, 'migrations.lock.json'), 'utf8')) as Record<
  string,
  string
>;
const sha256 = (file: string) =>
  createHash('sha256')
    .update(readFileSync(join(ROOT, file), 'utf8').replace(/\r\n/g, '\n'))
    .digest('hex');
const stepFiles = readdirSync(__dirname)
  .filter((name) => /^\d{13}-[a-z0-9-]+\.ts$/.test(name))
  .sort();

describe('committed migrations', () => {
  it.each(Object.keys(lock))('%s is unchanged since it was locked', (file) => {
    expect(sha256(file)).toBe(lock[file]);
  });

  it('every step file is locked (run node scripts/migrations-lock.js for a new one)', () => {
    const unlocked = stepFiles.map((name) => `${DIR}/${name}`).filter((file) => !(file in lock));
    expect(unlocked).toEqual([]);
  });

  it('registers one step per file, in timestamp order', () => {
    const stamps = schemaMigrations(4).map((m) => /(\d{13})$/.exec(m.name)?.[1]);
    expect(stamps).toEqual(stepFiles.map((name) => name.slice(0, 13)));
  });

  it('imports nothing but the step contract and the frozen inputs the lock names', () => {
    const frozen = Object.keys(lock).filter((file) => !file.startsWith(DIR));
    expect(frozen).toEqual(['libs/common/src/lexical-terms.ts']);
    for (const name of stepFiles) {
      const source = readFileSync(join(__dirname, name), 'utf8');
      const imports = [...source.matchAll(/^import .* from '([^']+)';$/gm)].map((m) => m[1]);
      const allowed = ['./migration', '../interfaces/sql-client.interface'];
      // Migration 5 backfilled postings with the shared normaliser, locked above.
      const extra = name.startsWith('1700000000005') ? ['@app/common'] : [];
      expect({ name, imports: imports.filter((i) => ![...allowed, ...extra].includes(i)) }).toEqual(
        {
          name,
          imports: [],
        },
      );
    }
  });
});
