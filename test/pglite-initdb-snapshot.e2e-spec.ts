import { join } from 'node:path';

import { PGlite } from '@electric-sql/pglite';

/**
 * The e2e projects' PGlite (test/support/pglite-initdb-snapshot.cjs): a new in-memory
 * database starts from an initdb snapshot, and that snapshot is an EMPTY cluster, so every
 * suite still sees the service create the extension and run each migration.
 */
describe('e2e PGlite starts a new in-memory database from an empty initdb snapshot', () => {
  const tables = (db: PGlite) =>
    db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')",
    );
  const extensions = (db: PGlite) =>
    db.query<{ extname: string }>('SELECT extname FROM pg_extension ORDER BY extname');

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
