import { withDeadline } from '@app/common';
import { type Database } from '@app/database';
import { Client } from 'pg';

import { openEngineDatabase, serverUrl, TEST_ENGINE } from './support/postgres';
import { waitFor } from './support/wait';

const DIMENSION = 8;

/** Resolves once `database` is inside a transaction; the transaction ends at `release()`. */
async function holdTransaction(database: Database) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  const done = database.transaction(async () => {
    entered();
    await gate;
  });
  await inside;
  return {
    release: async () => {
      release();
      await done;
    },
  };
}

/**
 * Cancellation through the SQL port: a read whose signal aborts stops at once, and the
 * database stops its work too. Postgres cancels the running statement on the server (and
 * the connection goes back to the pool); PGlite cannot interrupt a running WASM statement,
 * so it drops work that has not started yet.
 */
describe(`cancelling a statement on ${TEST_ENGINE}`, () => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    // One connection: a cancelled statement that kept it would starve every later one.
    ({ database, close } = await openEngineDatabase({
      poolMax: 1,
      statementTimeoutMs: 120_000,
      connectTimeoutMs: 2000,
    }));
    await database.open(DIMENSION);
    await database.exec('CREATE TABLE cancel_probe (n int)');
  });
  afterAll(() => close());

  it('rejects a call whose signal has already aborted without running it', async () => {
    const signal = AbortSignal.abort();
    await expect(
      database.query('INSERT INTO cancel_probe VALUES (1) RETURNING n', [], { signal }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    await expect(database.query('SELECT count(*)::int AS n FROM cancel_probe')).resolves.toEqual([
      { n: 0 },
    ]);
  });

  const onPglite = TEST_ENGINE === 'pglite' ? it : it.skip;
  const onServer = TEST_ENGINE === 'postgres' ? it.each : it.skip.each;

  onPglite('drops queued work whose signal aborts before it runs', async () => {
    const held = await holdTransaction(database);
    const controller = new AbortController();
    // Queued behind the open transaction: PGlite has one session.
    const queued = database.query('INSERT INTO cancel_probe VALUES (2) RETURNING n', [], {
      signal: controller.signal,
    });
    const outcome = queued.then(
      () => 'ran',
      (error: Error) => error.name,
    );
    controller.abort();
    await held.release();
    expect(await outcome).toBe('AbortError');
    await expect(
      database.query('SELECT count(*)::int AS n FROM cancel_probe WHERE n = 2'),
    ).resolves.toEqual([{ n: 0 }]);
  });

  onServer(['query', 'queryPrepared'] as const)(
    '%s: cancels the statement on the server and gives its connection back to the pool',
    async (method) => {
      const admin = new Client({ connectionString: serverUrl() });
      await admin.connect();
      try {
        const running = () =>
          admin
            .query<{ pid: number }>(
              `SELECT pid FROM pg_stat_activity
               WHERE state = 'active' AND query LIKE '%pg_sleep(110)%' AND pid <> pg_backend_pid()`,
            )
            .then((r) => r.rows);
        const controller = new AbortController();
        const sleeping = database[method]('SELECT pg_sleep(110)', [], {
          signal: controller.signal,
        });
        const outcome = sleeping.then(
          () => 'answered',
          (error: Error) => error.name,
        );
        await waitFor('the statement to run on the server', async () =>
          (await running()).length === 1 ? true : undefined,
        );
        controller.abort();
        // At once, not when the statement would have ended.
        expect(await withDeadline(5000, () => outcome)).toMatchObject({ value: 'AbortError' });
        await waitFor(
          'the server to stop the statement',
          async () => ((await running()).length === 0 ? true : undefined),
          10_000,
        );
        // The pool's only connection is free again.
        const next = await withDeadline(5000, () => database.query('SELECT 1 AS one'));
        expect(next).toMatchObject({ status: 'ok', value: [{ one: 1 }] });
      } finally {
        await admin.end();
      }
    },
  );
});
