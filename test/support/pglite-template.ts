import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';

import { PGlite } from '@electric-sql/pglite';

/** The installed PGlite's version (its exports map hides package.json from require). */
function pgliteVersion(): string {
  const main = require.resolve('@electric-sql/pglite');
  const root = main.slice(0, main.lastIndexOf(`${sep}dist${sep}`));
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string })
    .version;
}

/**
 * PGlite's initdb is the slowest step of an embedded boot (3.5 to 6 s of WASM on this box,
 * about half of a fresh `Database.open`), and it is the same for every test. So an e2e
 * database on PGlite starts from a copy of one cluster initdb made per PGlite version: an
 * empty cluster with no extension and no schema, so the service still creates the vector
 * extension and runs every migration itself, exactly as on a fresh install. Tests of the
 * first boot on an empty directory (`boot`, `cli-*`) keep their own empty directories.
 */
const TEMPLATE = join(tmpdir(), `cb-pglite-initdb-${pgliteVersion()}`);

let building: Promise<void> | undefined;

async function ensureTemplate(): Promise<void> {
  if (existsSync(join(TEMPLATE, 'PG_VERSION'))) {
    return;
  }
  // Built aside and renamed into place: a Jest worker never sees half a cluster, and when
  // two workers race, the loser's rename fails and its copy is dropped.
  const aside = mkdtempSync(`${TEMPLATE}.build-`);
  try {
    const db = await PGlite.create({ dataDir: aside });
    await db.close();
    renameSync(aside, TEMPLATE);
  } catch (error) {
    rmSync(aside, { recursive: true, force: true });
    if (!existsSync(join(TEMPLATE, 'PG_VERSION'))) {
      throw error;
    }
  }
}

/** A new PGlite data dir holding a freshly initdb'd, empty cluster; `release` deletes it. */
export async function freshPgliteDir(): Promise<{ dataDir: string; release(): Promise<void> }> {
  building ??= ensureTemplate().finally(() => (building = undefined));
  await building;
  const dataDir = mkdtempSync(join(tmpdir(), 'cb-db-'));
  cpSync(TEMPLATE, dataDir, { recursive: true });
  return {
    dataDir,
    release: () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true })),
  };
}
