import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type * as Threads from 'node:worker_threads';

import { withDeadline } from '@app/common';
import { Database } from '@app/database';

import { bootTestApp, type TestApp } from './support/app';
import { seededTempDataDir } from './support/pglite-data-dir';
import { waitFor } from './support/wait';

const DIMENSION = 8;
// The module object itself (an `import *` would be a copy): the code under test reads
// `Worker` from it when it starts a worker.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const threads = require('node:worker_threads') as typeof Threads;
const RealWorker = threads.Worker;

/**
 * Every PGlite worker thread the code under test starts, so a test can kill one as a WASM
 * trap or an out-of-memory would. `failNext` makes the following ones die at once.
 */
function watchWorkers() {
  const started: Threads.Worker[] = [];
  let failing = false;
  const spy = jest
    .spyOn(threads, 'Worker')
    .mockImplementation((source: string | URL, options?: Threads.WorkerOptions) => {
      const worker = failing
        ? new RealWorker('process.exit(1)', { eval: true })
        : new RealWorker(source, options);
      started.push(worker);
      return worker;
    });
  return {
    started,
    latest: () => started[started.length - 1],
    failNext: (on: boolean) => (failing = on),
    restore: () => spy.mockRestore(),
  };
}

/** Resolves once `database` is inside a transaction; it ends at `release()` (or never). */
async function holdTransaction(database: Database): Promise<{ release(): void }> {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let entered!: () => void;
  const inside = new Promise<void>((resolve) => (entered = resolve));
  database
    .transaction(async () => {
      entered();
      await gate;
    })
    .catch(() => undefined);
  await inside;
  return { release };
}

/**
 * The embedded engine's failure modes: a dead worker is replaced on the same data dir, a
 * call that takes too long fails with `database_timeout`, and a worker that cannot be
 * replaced takes liveness down. PGlite only: a server's process is not ours to replace.
 */
describe('the embedded PGlite worker (replacement, timeouts, liveness)', () => {
  let dataDir: string;
  let workers: ReturnType<typeof watchWorkers>;
  let database: Database;

  // One data dir (an initdb and every migration) for the suite; each test opens it anew, in
  // workers it watches from the start. No test leaves a row in `probe` beside the first.
  beforeAll(async () => {
    dataDir = seededTempDataDir('cb-pglite-');
    const setup = new Database({ dataDir });
    await setup.open(DIMENSION);
    await setup.exec('CREATE TABLE probe (n int); INSERT INTO probe VALUES (1)');
    await setup.close();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  beforeEach(async () => {
    workers = watchWorkers();
    database = new Database({ dataDir, statementTimeoutMs: 1000 });
    await database.open(DIMENSION);
  });
  afterEach(async () => {
    workers.restore();
    await database.close();
  });

  it('fails the calls in flight when the worker dies, then reopens the same data dir in a new one', async () => {
    await holdTransaction(database);
    const inFlight = database.query('SELECT n FROM probe');
    await workers.latest().terminate();
    await expect(inFlight).rejects.toMatchObject({
      code: 'database_unavailable',
      message: expect.stringMatching(/embedded database worker exited/),
    });

    const rows = await waitFor('a new worker to answer', () =>
      database.query<{ n: number }>('SELECT n FROM probe').catch(() => undefined),
    );
    expect(rows).toEqual([{ n: 1 }]);
    expect(workers.started).toHaveLength(2);
    // The data dir is still locked, by this process, for the new worker.
    const lock = join(dataDir, '.context-bridge.lock');
    expect(existsSync(lock) && readFileSync(lock, 'utf8')).toBe(String(process.pid));
    expect(database.liveness()).toEqual({ up: true });
    expect(await database.check()).toEqual({ up: true });
  });

  it('fails a call that outlasts the statement timeout with database_timeout, and drops it', async () => {
    const held = await holdTransaction(database);
    const outcome = await withDeadline(10_000, () =>
      database.query('INSERT INTO probe VALUES (2) RETURNING n'),
    );
    expect(outcome).toMatchObject({ status: 'error', error: { code: 'database_timeout' } });
    held.release();
    // Queued behind the insert: had the insert run, this would see its row.
    await expect(database.query('SELECT n FROM probe ORDER BY n')).resolves.toEqual([{ n: 1 }]);
  });

  it('reports not live while the worker cannot be replaced, and live again once it is', async () => {
    workers.failNext(true);
    await workers.latest().terminate();
    await waitFor('liveness to go down', () =>
      Promise.resolve(database.liveness().up ? undefined : database.liveness()),
    );
    expect(database.liveness()).toEqual({
      up: false,
      reason: expect.stringMatching(/could not be reopened \(\d+ attempts in a row/),
    });
    await expect(database.query('SELECT 1')).rejects.toMatchObject({
      code: 'database_unavailable',
    });

    workers.failNext(false);
    await waitFor('a worker that opens', () =>
      database.query<{ n: number }>('SELECT n FROM probe').catch(() => undefined),
    );
    expect(database.liveness()).toEqual({ up: true });
  });
});

/**
 * The same failure modes as the routes and probes answer them: a statement that outlasts
 * DATABASE_STATEMENT_TIMEOUT_MS is a 503 `database_timeout`, and an engine that has answered
 * nothing for four statement timeouts takes `GET /health/live` down until it answers again.
 */
describe('the embedded PGlite worker over HTTP (e2e: real app on PGlite)', () => {
  const STATEMENT_TIMEOUT_MS = 500;
  let t: TestApp;

  beforeAll(async () => {
    t = await bootTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) });
  });
  afterAll(() => t?.close());

  const get = async (path: string) => {
    const response = await fetch(`${t.url}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('answers 503 database_timeout past the statement timeout, and liveness 503 once the engine stalls', async () => {
    await expect(get('/contacts')).resolves.toMatchObject({ status: 200 });
    expect(await get('/health/live')).toMatchObject({ status: 200 });

    // PGlite has one session: a transaction that does not end holds every other statement.
    const held = await holdTransaction(t.app.get(Database));
    expect(await get('/contacts')).toEqual({
      status: 503,
      body: expect.objectContaining({ error: 'database_timeout', message: expect.any(String) }),
    });
    const down = await waitFor('liveness to go down', async () => {
      const live = await get('/health/live');
      return live.status === 503 ? live : undefined;
    });
    expect(down.body).toMatchObject({
      details: {
        database: {
          status: 'down',
          message: expect.stringMatching(/has answered nothing for \d+ s/),
        },
      },
    });

    held.release();
    await waitFor('liveness to come back', async () =>
      (await get('/health/live')).status === 200 ? true : undefined,
    );
    await expect(get('/contacts')).resolves.toMatchObject({ status: 200 });
  });
});
