import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';

import { seedDataDir, seededTempDataDir } from './support/pglite-data-dir';

/**
 * The e2e projects' PGlite (test/support/pglite-initdb-snapshot.cjs): a new in-memory
 * database starts from an initdb snapshot, and that snapshot is an EMPTY cluster, so every
 * suite still sees the service create the extension and run each migration.
 */
const tables = (db: PGlite) =>
  db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
  );
const extensions = (db: PGlite) =>
  db.query<{ extname: string }>('SELECT extname FROM pg_extension ORDER BY extname');

describe('e2e PGlite starts a new in-memory database from an empty initdb snapshot', () => {
  it('is what the service’s PGlite worker threads load (the path require.resolve gives them)', () => {
    expect(require.resolve('@electric-sql/pglite')).toBe(
      join(__dirname, 'support', 'pglite-initdb-snapshot.cjs'),
    );
  });

  it('loads an empty cluster: no schema, no extension but plpgsql, writable', async () => {
    const db = await PGlite.create({ dataDir: 'memory://' });
    try {
      expect((await tables(db)).rows).toEqual([{ n: 0 }]);
      expect((await extensions(db)).rows).toEqual([{ extname: 'plpgsql' }]);
      await db.exec('CREATE TABLE t (x int); INSERT INTO t VALUES (1)');
      expect((await db.query('SELECT x FROM t')).rows).toEqual([{ x: 1 }]);
    } finally {
      await db.close();
    }
    // What one database wrote is in no other: each load is its own copy.
    const next = await PGlite.create('memory://');
    try {
      expect((await tables(next)).rows).toEqual([{ n: 0 }]);
    } finally {
      await next.close();
    }
  });
});

/** test/support/pglite-data-dir.ts: a new data dir on disk is a copy of an empty cluster. */
describe('a seeded PGlite data dir on disk', () => {
  const dirs: string[] = [];
  const seeded = () => {
    const dir = seededTempDataDir('cb-seeded-');
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is an initdb’d cluster before the first open: empty, no extension but plpgsql, its own copy', async () => {
    const first = seeded();
    expect(existsSync(join(first, 'PG_VERSION'))).toBe(true);
    const db = await PGlite.create({ dataDir: first });
    try {
      expect((await tables(db)).rows).toEqual([{ n: 0 }]);
      expect((await extensions(db)).rows).toEqual([{ extname: 'plpgsql' }]);
      await db.exec('CREATE TABLE t (x int)');
    } finally {
      await db.close();
    }
    const next = await PGlite.create({ dataDir: seeded() });
    try {
      expect((await tables(next)).rows).toEqual([{ n: 0 }]);
    } finally {
      await next.close();
    }
  });

  it('never copies over a dir that holds something, and is off with PGLITE_DIR_TEMPLATE=0', () => {
    const used = mkdtempSync(join(tmpdir(), 'cb-seeded-'));
    dirs.push(used);
    writeFileSync(join(used, 'keep'), 'x');
    expect(() => seedDataDir(used)).toThrow(/is not empty/);
    expect(readdirSync(used)).toEqual(['keep']);

    const off = mkdtempSync(join(tmpdir(), 'cb-seeded-'));
    dirs.push(off);
    process.env.PGLITE_DIR_TEMPLATE = '0';
    try {
      expect(seedDataDir(off)).toBe(off);
    } finally {
      delete process.env.PGLITE_DIR_TEMPLATE;
    }
    expect(readdirSync(off)).toEqual([]);
  });
});
