import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { WASM_CHILD_FLAGS } from './native-crash';

/**
 * New PGlite data dirs on disk that start as a copy of one empty initdb'd cluster instead of
 * running initdb (3.5 to 4.5 s of CPU in the process that opens the dir, measured on a loaded
 * 2-core box; a reopen costs 0.6 s). The copy holds what initdb writes and nothing else: no
 * extension, no schema, no lock file, so the service still creates the vector extension and
 * runs every migration as on a fresh install. The template is built once per PGlite version
 * in `$TMPDIR`, by a child process, so no Jest worker runs a file-backed initdb for it.
 * `PGLITE_INITDB_SNAPSHOT=0` turns it off with the in-memory snapshot; `PGLITE_DIR_TEMPLATE=0`
 * turns off this alone (an A/B of the two).
 */

const PACKAGE = join(__dirname, '..', '..', 'node_modules', '@electric-sql', 'pglite');
const { version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
  version: string;
};
const TEMPLATE = join(tmpdir(), `cb-pglite-initdb-dir-${version}`);

// A plain PGlite (by path: Jest's mapper never applies in a child) on a new dir, closed cleanly.
const BUILD = `
const { PGlite } = require(${JSON.stringify(join(PACKAGE, 'dist', 'index.cjs'))});
PGlite.create({ dataDir: process.argv[1] }).then((db) => db.close());
`;

/** Builds the template aside and renames it into place (a racing builder's copy is dropped). */
function ensureTemplate(): boolean {
  if (existsSync(join(TEMPLATE, 'PG_VERSION'))) {
    return true;
  }
  const aside = mkdtempSync(join(tmpdir(), 'cb-pglite-initdb-dir-'));
  const dataDir = join(aside, 'pgdata');
  try {
    const built = spawnSync(process.execPath, [...WASM_CHILD_FLAGS, '-e', BUILD, dataDir], {
      stdio: 'ignore',
      timeout: 120_000,
    });
    if (built.status !== 0 || !existsSync(join(dataDir, 'PG_VERSION'))) {
      return false; // no template: the caller's dir runs initdb itself, as without this
    }
    try {
      renameSync(dataDir, TEMPLATE);
    } catch {
      // Another worker renamed its own template first: the same empty cluster.
    }
    return existsSync(join(TEMPLATE, 'PG_VERSION'));
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}

/**
 * Makes `dir` (absent or empty) an empty initdb'd PGlite cluster and returns it; with the
 * template off or unbuildable it leaves `dir` alone, and the first open runs initdb.
 */
export function seedDataDir(dir: string): string {
  if (process.env.PGLITE_INITDB_SNAPSHOT === '0' || process.env.PGLITE_DIR_TEMPLATE === '0') {
    return dir;
  }
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new Error(`seedDataDir: ${dir} is not empty`);
  }
  if (ensureTemplate()) {
    cpSync(TEMPLATE, dir, { recursive: true });
  }
  return dir;
}

/** A new temporary PGlite data dir (see {@link seedDataDir}). */
export function seededTempDataDir(prefix: string): string {
  return seedDataDir(mkdtempSync(join(tmpdir(), prefix)));
}
