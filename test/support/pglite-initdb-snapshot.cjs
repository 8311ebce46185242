'use strict';
/**
 * `@electric-sql/pglite` as the Jest projects see it (jest.config.js maps the name here, so
 * the service's PGlite worker threads load it too, by the path `require.resolve` gives them):
 * the real module, except that a NEW IN-MEMORY database starts from a snapshot of an empty
 * cluster that initdb made, loaded into memory with `loadDataDir`, instead of running initdb
 * again. initdb is 3 to 5 s of WASM per fresh boot on a loaded 2-core box; the snapshot loads
 * in under 1 s. The snapshot holds no extension and no schema: the service still creates the
 * vector extension and runs every migration, as on a fresh install. A data dir on disk (the
 * restart, boot and CLI tests) is untouched here; pglite-data-dir.ts seeds those (a directory
 * copy made by a child, never a file-backed PGlite template in a Jest worker: c20936c).
 * `PGLITE_INITDB_SNAPSHOT=0` turns it off. Plain CommonJS: worker threads load it without Jest.
 */
const {
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

// By path: the package name would map back to this file under Jest.
const PACKAGE = join(__dirname, '..', '..', 'node_modules', '@electric-sql', 'pglite');
const real = require(join(PACKAGE, 'dist', 'index.cjs'));
const { version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
const SNAPSHOT = join(tmpdir(), `cb-pglite-initdb-${version}.tar`);
const enabled = () => process.env.PGLITE_INITDB_SNAPSHOT !== '0';

/** Options naming a new in-memory database that no snapshot or file system seeds already. */
function freshInMemory(options) {
  const dataDir = options.dataDir ?? 'memory://';
  return dataDir.startsWith('memory://') && !options.loadDataDir && !options.fs;
}

let building;
/** Writes the snapshot once per PGlite version: built aside, renamed into place whole. */
async function ensureSnapshot() {
  if (existsSync(SNAPSHOT)) {
    return;
  }
  const aside = mkdtempSync(join(tmpdir(), 'cb-pglite-initdb-'));
  try {
    const db = await real.PGlite.create({ dataDir: 'memory://' });
    const tarball = await db.dumpDataDir('none');
    await db.close();
    writeFileSync(join(aside, 'initdb.tar'), Buffer.from(await tarball.arrayBuffer()));
    // Two builders racing both rename a whole file: either one is the same empty cluster.
    renameSync(join(aside, 'initdb.tar'), SNAPSHOT);
  } finally {
    rmSync(aside, { recursive: true, force: true });
  }
}

/** The options with the snapshot to load when they name a fresh in-memory database. */
function withSnapshot(dataDirOrOptions, maybeOptions) {
  const options =
    typeof dataDirOrOptions === 'string'
      ? { ...maybeOptions, dataDir: dataDirOrOptions }
      : { ...dataDirOrOptions };
  if (enabled() && freshInMemory(options) && existsSync(SNAPSHOT)) {
    options.loadDataDir = new Blob([readFileSync(SNAPSHOT)]);
  }
  return options;
}

class PGlite extends real.PGlite {
  constructor(dataDirOrOptions, maybeOptions) {
    super(withSnapshot(dataDirOrOptions, maybeOptions));
  }

  static async create(dataDirOrOptions, maybeOptions) {
    if (enabled()) {
      building ??= ensureSnapshot().finally(() => (building = undefined));
      await building;
    }
    return super.create(withSnapshot(dataDirOrOptions, maybeOptions));
  }
}

module.exports = { ...real, PGlite };
