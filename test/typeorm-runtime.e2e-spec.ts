import { type Database, DatabaseTimeoutError, PodiumContactTombstoneEntity } from '@app/database';

import { openEngineDatabase, TEST_ENGINE } from './support/postgres';

/**
 * The app's TypeORM DataSource on this project's engine: it opens with the database, runs
 * on the SQL port's own connections (a server pool, or the PGlite worker's one session),
 * and its transactions are isolated from concurrent autocommit statements.
 */
describe(`the app's TypeORM data source on ${TEST_ENGINE}`, () => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openEngineDatabase());
    await database.open(4);
  });
  afterAll(() => close());

  const tombstones = () => database.dataSource.getRepository(PodiumContactTombstoneEntity);
  const stored = async (uid: string) =>
    (
      await database.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM podium_contact_tombstones WHERE contact_uid = $1',
        [uid],
      )
    )[0]?.n;

  it('is open once the database is, with every entity', () => {
    expect(database.dataSource.isInitialized).toBe(true);
    expect(database.dataSource.entityMetadatas.map((m) => m.tableName)).toContain(
      'podium_contact_tombstones',
    );
  });

  it('runs on the SQL port session: its settings, not a pool of its own', async () => {
    const rows = await database.dataSource.query<{ ef: string }[]>(
      "SELECT current_setting('hnsw.ef_search') AS ef",
    );
    expect(rows).toEqual([{ ef: '100' }]);
  });

  it('saves and finds an entity that the raw port sees', async () => {
    const at = new Date('2026-12-01T10:00:00Z');
    await tombstones().save({ contactUid: 'orm-1', mergedInto: 'orm-2', eventAt: at });
    await expect(tombstones().findOneBy({ contactUid: 'orm-1' })).resolves.toMatchObject({
      contactUid: 'orm-1',
      mergedInto: 'orm-2',
      eventAt: at,
    });
    await expect(stored('orm-1')).resolves.toBe(1);
  });

  it('answers update and delete with affected counts on both engines', async () => {
    await tombstones().save({ contactUid: 'orm-3' });
    await expect(
      tombstones().update({ contactUid: 'orm-3' }, { mergedInto: 'x' }),
    ).resolves.toMatchObject({ affected: 1 });
    await expect(tombstones().delete({ contactUid: 'orm-3' })).resolves.toMatchObject({
      affected: 1,
    });
    await expect(stored('orm-3')).resolves.toBe(0);
  });

  it('rolls a failed transaction back without taking a concurrent statement with it', async () => {
    let outside: Promise<number> | undefined;
    const failed = database.dataSource.transaction(async (manager) => {
      await manager.insert(PodiumContactTombstoneEntity, { contactUid: 'orm-in-tx' });
      // An autocommit write while the transaction is open: it must not join it.
      outside = database.execute(
        'INSERT INTO podium_contact_tombstones (contact_uid) VALUES ($1)',
        ['orm-outside'],
      );
      await expect(
        manager.countBy(PodiumContactTombstoneEntity, { contactUid: 'orm-in-tx' }),
      ).resolves.toBe(1);
      throw new Error('abandon');
    });
    await expect(failed).rejects.toThrow('abandon');
    await expect(outside).resolves.toBe(1);
    await expect(stored('orm-in-tx')).resolves.toBe(0);
    await expect(stored('orm-outside')).resolves.toBe(1);
  });

  it('commits a transaction that succeeds', async () => {
    await database.dataSource.transaction((manager) =>
      manager.insert(PodiumContactTombstoneEntity, { contactUid: 'orm-committed' }),
    );
    await expect(stored('orm-committed')).resolves.toBe(1);
  });

  it('fails a statement past the statement timeout with database_timeout, as the SQL port does', async () => {
    const short = await openEngineDatabase({ statementTimeoutMs: 1000 });
    try {
      await short.database.open(4);
      // Not TypeORM's QueryFailedError: the exception filter answers this one with a 503.
      await expect(short.database.dataSource.query('SELECT pg_sleep(3)')).rejects.toBeInstanceOf(
        DatabaseTimeoutError,
      );
    } finally {
      await short.close();
    }
  });
});
