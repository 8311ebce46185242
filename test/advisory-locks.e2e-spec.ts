/**
 * Cross-replica advisory locks on a real Postgres server: held on a lane of their own (never
 * the request pool), in a bounded number of lock-table entries whatever the key set, immune
 * to a server's idle-in-transaction limit, and failing loudly when their session is lost.
 *
 * Runs in the e2e-postgres project only: on PGlite (one process) the locks are a pass-through.
 */
import { withDeadline } from '@app/common';
import { Database } from '@app/database';
import { Client } from 'pg';

import { createServerDatabase, type ServerDatabase } from './support/postgres';
import { waitFor } from './support/wait';

const DIMENSION = 4;
/** The contact scope's first key half (advisory-locks.ts), as pg_locks shows it. */
const CONTACT_SCOPE = 0x63620002;
/** Longest a test waits for what, on a deadlocked lane, never happens. */
const NEVER_MS = 10_000;

describe('advisory locks on Postgres (lock lane, stripes, lost sessions)', () => {
  let server: ServerDatabase;
  let admin: Client;
  const opened: Database[] = [];

  const open = async (options: { poolMax?: number; connectTimeoutMs?: number } = {}) => {
    const database = new Database({ dataDir: '', databaseUrl: server.url, ...options });
    opened.push(database);
    await database.open(DIMENSION);
    return database;
  };
  const scalar = async (sql: string, params: unknown[] = []) =>
    Number(Object.values((await admin.query(sql, params)).rows[0] as object)[0]);
  /** Sessions of this test's database in `state`, by application name. */
  const sessions = (application: string, state: string) =>
    scalar(
      `SELECT count(*) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = $1 AND state = $2`,
      [application, state],
    );

  beforeEach(async () => {
    server = await createServerDatabase();
    admin = new Client({ connectionString: server.url });
    await admin.connect();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((d) => d.close()));
    await admin.end();
    await server.drop();
  });

  it('holds a 5,000-contact lock in at most 64 lock-table entries', async () => {
    const sut = await open();
    const keys = Array.from({ length: 5000 }, (_, i) => `contact-${i}`);
    const held = await sut.withLocks('contact', keys, () =>
      scalar(
        `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = $1::int::oid`,
        [CONTACT_SCOPE],
      ),
    );
    expect(held).toBeGreaterThan(0);
    expect(held).toBeLessThanOrEqual(64);
  });

  it('keeps a key set that spans every group waiting while a one-key holder of one of its keys works', async () => {
    const [one, two] = [await open(), await open()];
    const many = Array.from({ length: 500 }, (_, i) => `contact-${i}`);
    const order: string[] = [];
    let release!: () => void;
    const small = one.withLocks('contact', ['contact-7'], async () => {
      order.push('small starts');
      await new Promise<void>((resolve) => (release = resolve));
      order.push('small ends');
    });
    await waitFor('the small lock held', () => Promise.resolve(order.length > 0 || undefined));
    const large = two.withLocks('contact', many, () => {
      order.push('large runs');
      return Promise.resolve();
    });
    await waitFor('the large set waiting', async () =>
      (await scalar(`SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`)) >
      0
        ? true
        : undefined,
    );
    release();
    await Promise.all([small, large]);
    expect(order).toEqual(['small starts', 'small ends', 'large runs']);
  });

  it('takes a lock nested in another (a leader job rebuilding) even when every lane session is held', async () => {
    const sut = new Database({ dataDir: '', databaseUrl: server.url, lockConnections: 2 });
    opened.push(sut);
    await sut.open(DIMENSION);
    // Two outer holders fill the lane; each then needs one more lock inside.
    const nested = (i: number) =>
      sut.withLocks('contact', [`contact-${i}`], () =>
        sut.withLocks('conversation', [`contact-${i}\u001fconv`], () => Promise.resolve(i)),
      );
    const outcome = await withDeadline(NEVER_MS, () => Promise.all([nested(1), nested(2)]));
    expect(outcome).toMatchObject({ status: 'ok', value: [1, 2] });
  });

  it('leaves the request pool to requests while 50 locked works run on a pool of 10', async () => {
    const sut = await open({ poolMax: 10, connectTimeoutMs: 2000 });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    // Each work waits at the gate, as an ingest's embedding or a forget's purge would, then
    // runs statements of its own on the pool.
    const works = Array.from({ length: 50 }, (_, i) =>
      sut.withLocks('contact', [`contact-${i}`], async () => {
        await gate;
        await sut.query('SELECT pg_sleep(0.005)');
        return sut.query('SELECT 1 AS one');
      }),
    );
    try {
      await waitFor('the lane to fill', async () =>
        (await sessions('context-bridge-locks', 'idle in transaction')) >= 4 ? true : undefined,
      );
      // No pooled connection sits idle in a transaction; requests get one at once.
      expect(await sessions('context-bridge', 'idle in transaction')).toBe(0);
      const requests = await Promise.allSettled(
        Array.from({ length: 20 }, () => sut.query('SELECT 1 AS one')),
      );
      expect(requests.filter((r) => r.status === 'rejected')).toEqual([]);
    } finally {
      release();
    }
    const done = await Promise.allSettled(works);
    expect(done.filter((r) => r.status === 'rejected')).toEqual([]);
    // The lane caps lock holders per process (DEFAULT_DATABASE_OPTIONS.lockConnections).
    expect(await sessions('context-bridge-locks', 'idle in transaction')).toBe(0);
  });

  it("keeps its locks past the server's idle_in_transaction_session_timeout", async () => {
    const sut = await open();
    // A server-wide limit, as a managed Postgres sets, for every session opened from now on:
    // the pool's idle connections are ended so that it opens new ones under it too.
    await admin.query(
      `ALTER DATABASE ${new URL(server.url).pathname.slice(1)} SET idle_in_transaction_session_timeout = '20ms'`,
    );
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND application_name = 'context-bridge'`,
    );
    // A witness session idle in a transaction, opened once the locks are held: once the
    // server has ended it, the lock session has been idle at least as long.
    const serverEndsAnIdleTransaction = async () => {
      const witness = new Client({ connectionString: server.url });
      witness.on('error', () => undefined);
      const ended = new Promise<void>((resolve) => witness.on('end', () => resolve()));
      await witness.connect();
      await witness.query('BEGIN');
      await ended;
    };
    await expect(
      sut.withLocks('contact', ['contact-1'], async () => {
        await serverEndsAnIdleTransaction();
        return sut.query('SELECT 1 AS one');
      }),
    ).resolves.toEqual([{ one: 1 }]);
    await expect(sut.whileLeading('a-job', serverEndsAnIdleTransaction)).resolves.toMatchObject({
      ran: true,
    });
  });

  it('fails a pooled transaction the server ends mid-way with database_unavailable, not a crash', async () => {
    const sut = await open();
    // Unheard, the 'error' of a checked-out connection was an uncaught exception: the end of
    // the process (and of this test run, reported as an unhandled error).
    const outcome = sut.transaction(async (tx) => {
      const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      await waitFor('the server to end the session', async () =>
        (await scalar('SELECT count(*) FROM pg_stat_activity WHERE pid = $1', [pid])) === 0
          ? true
          : undefined,
      );
      return tx.query('SELECT 1 AS one');
    });
    await expect(outcome).rejects.toMatchObject({ code: 'database_unavailable' });
    await expect(sut.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
  });

  it('aborts the work and fails the call when the session holding the locks is lost, then locks again', async () => {
    const sut = await open();
    const outcome = sut.withLocks('contact', ['contact-1'], async (signal) => {
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE datname = current_database() AND application_name = 'context-bridge-locks'`,
      );
      if (!signal.aborted) {
        await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      }
      return 'finished without its locks';
    });
    await expect(outcome).rejects.toMatchObject({
      code: 'database_unavailable',
      message: expect.stringMatching(/session holding its advisory locks ended/),
    });
    await expect(sut.withLocks('contact', ['contact-1'], () => Promise.resolve(1))).resolves.toBe(
      1,
    );
    await expect(sut.whileLeading('a-job', () => Promise.resolve(2))).resolves.toEqual({
      ran: true,
      value: 2,
    });
  });

  it('runs a transaction the server aborted to break a deadlock again, so both writers succeed', async () => {
    const sut = await open();
    await admin.query('CREATE TABLE deadlock_probe (id int PRIMARY KEY, v int NOT NULL DEFAULT 0)');
    await admin.query('INSERT INTO deadlock_probe (id) VALUES (1), (2)');
    let aHolds!: () => void;
    let bHolds!: () => void;
    const aHeld = new Promise<void>((resolve) => (aHolds = resolve));
    const bHeld = new Promise<void>((resolve) => (bHolds = resolve));
    const runs = { a: 0, b: 0 };
    // Each locks its first row, waits until the other holds its own, then wants the other's:
    // a true deadlock, which Postgres breaks by aborting one of them.
    const writer = (
      name: 'a' | 'b',
      first: number,
      second: number,
      holds: () => void,
      other: Promise<void>,
    ) =>
      sut.transaction(async (tx) => {
        runs[name]++;
        await tx.execute('UPDATE deadlock_probe SET v = v + 1 WHERE id = $1', [first]);
        holds();
        await other;
        await tx.execute('UPDATE deadlock_probe SET v = v + 1 WHERE id = $1', [second]);
      });
    await Promise.all([writer('a', 1, 2, aHolds, bHeld), writer('b', 2, 1, bHolds, aHeld)]);
    expect(runs.a + runs.b).toBe(3); // one of them ran twice
    const rows = (await admin.query('SELECT id, v FROM deadlock_probe ORDER BY id')).rows;
    expect(rows).toEqual([
      { id: 1, v: 2 },
      { id: 2, v: 2 },
    ]);
  });
});
