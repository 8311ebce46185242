import { Worker } from 'node:worker_threads';

import { withDeadline } from '@app/common';
import { Database } from '@app/database';

import { PGLITE_WORKER_SOURCE } from '../libs/database/src/pglite/pglite-worker-source';

/** Longest a test waits for an answer that, on a wedged engine, never comes. */
const NEVER_MS = 10_000;

interface Reply {
  id: number;
  value?: unknown;
  error?: { message: string; name: string };
}

/** The worker spoken to at the protocol level, as `PgliteClient` does, one message at a time. */
async function openWorker() {
  const worker = new Worker(PGLITE_WORKER_SOURCE, {
    eval: true,
    workerData: {
      pglitePath: require.resolve('@electric-sql/pglite'),
      vectorPath: require.resolve('@electric-sql/pglite-pgvector'),
    },
  });
  const replies = new Map<number, (reply: Reply) => void>();
  worker.on('message', (reply: Reply) => replies.get(reply.id)?.(reply));
  const send = (message: Record<string, unknown>) =>
    new Promise<Reply>((resolve) => {
      replies.set(message.id as number, resolve);
      worker.postMessage(message);
    });
  await send({ id: 1, op: 'open', dataDir: 'memory://', settings: 'SELECT 1' });
  return { worker, send, post: (message: Record<string, unknown>) => worker.postMessage(message) };
}

/**
 * A `begin` whose caller gives up in the same turn as the worker starts it: the worker's
 * "started" and the caller's `cancel` cross. Before the fix the transaction stayed open with
 * nobody to end it, and every later statement waited behind it until liveness restarted the
 * process. PGlite only: a server ends a transaction whose connection is released.
 */
describe('a PGlite transaction whose begin was given up (orphan transactions)', () => {
  it('rolls back a transaction whose cancel arrives after it started, so later statements run', async () => {
    const sut = await openWorker();
    try {
      await sut.send({ id: 2, op: 'exec', sql: 'CREATE TABLE probe (n int)' });
      // Started: the worker answered. The caller's cancel was already on its way.
      await expect(sut.send({ id: 3, op: 'begin', tx: 1 })).resolves.toEqual({
        id: 3,
        value: null,
      });
      await sut.send({
        id: 4,
        op: 'execute',
        sql: 'INSERT INTO probe VALUES (1)',
        params: [],
        tx: 1,
      });
      sut.post({ id: 0, op: 'cancel', target: 3 });

      const after = await withDeadline(NEVER_MS, () =>
        sut.send({ id: 5, op: 'query', sql: 'SELECT count(*)::int AS n FROM probe', params: [] }),
      );
      // It ran, and the abandoned transaction's insert was rolled back.
      expect(after).toMatchObject({ status: 'ok', value: { id: 5, value: [{ n: 0 }] } });
    } finally {
      await sut.worker.terminate();
    }
  });

  it('leaves a transaction its caller kept alone when a stale cancel names another call', async () => {
    const sut = await openWorker();
    try {
      await sut.send({ id: 2, op: 'exec', sql: 'CREATE TABLE probe (n int)' });
      await sut.send({ id: 3, op: 'begin', tx: 1 });
      sut.post({ id: 0, op: 'cancel', target: 99 });
      await sut.send({
        id: 4,
        op: 'execute',
        sql: 'INSERT INTO probe VALUES (1)',
        params: [],
        tx: 1,
      });
      await expect(sut.send({ id: 5, op: 'commit', tx: 1 })).resolves.toEqual({
        id: 5,
        value: null,
      });
      await expect(
        sut.send({ id: 6, op: 'query', sql: 'SELECT n FROM probe', params: [] }),
      ).resolves.toEqual({ id: 6, value: [{ n: 1 }] });
    } finally {
      await sut.worker.terminate();
    }
  });

  it('keeps answering after a transaction whose begin timed out while the engine was busy', async () => {
    // Long enough that the statements of open() fit on a loaded CI box, far shorter than
    // the script below.
    const sut = new Database({ dataDir: 'memory://', statementTimeoutMs: 300 });
    await sut.open(8);
    try {
      await sut.exec('CREATE TABLE probe (n int)');
      const order: string[] = [];
      // A script is not time-limited: it keeps the worker's thread busy well past the
      // begin's 300 ms, so the begin times out on this side before the worker can start it,
      // and the worker starts it as soon as the script ends (before it reads the cancel).
      const busy = sut
        .exec(
          `CREATE TABLE filler AS SELECT g, md5(g::text) AS h FROM generate_series(1, 400000) g`,
        )
        .then(() => order.push('script done'));
      const tx = sut
        .transaction((t) => t.execute('INSERT INTO probe VALUES (1)'))
        .catch((error: { code?: string }) => order.push(`transaction ${error.code}`));
      await Promise.all([busy, tx]);
      // The setup this test needs: the begin gave up while the worker was still busy.
      expect(order).toEqual(['transaction database_timeout', 'script done']);

      const after = await withDeadline(NEVER_MS, async () => {
        // Each call may itself time out while the engine settles; it must come back.
        for (;;) {
          try {
            return await sut.query<{ n: number }>('SELECT count(*)::int AS n FROM probe');
          } catch (error) {
            if ((error as { code?: string }).code !== 'database_timeout') {
              throw error;
            }
          }
        }
      });
      expect(after).toMatchObject({ status: 'ok', value: [{ n: 0 }] });
    } finally {
      await sut.close();
    }
  });
});
