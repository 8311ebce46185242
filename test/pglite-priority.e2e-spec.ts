import { inBackground } from '@app/common';

import { PgliteClient } from '../libs/database/src/pglite/pglite.client';

/**
 * Live statements go ahead of background work on PGlite's one session (issue 37): a `/chat`
 * or MCP flood's searches (run `inBackground`) must not queue ahead of a `/context` statement.
 */
describe('PGlite: background statements yield to live ones', () => {
  let sut: PgliteClient;

  beforeAll(async () => {
    sut = await PgliteClient.open({
      dataDir: 'memory://',
      sessionSettings: '',
      statementTimeoutMs: 30_000,
    });
  }, 60_000);

  afterAll(() => sut.close());

  /** A statement that takes the worker a few milliseconds. */
  const busy = 'SELECT count(*) AS n FROM generate_series(1, 200000)';

  it('answers a live statement before background statements queued earlier', async () => {
    const order: string[] = [];
    const background = Array.from({ length: 4 }, (_, i) =>
      inBackground(() => sut.query(busy)).then(() => order.push(`background ${i}`)),
    );
    const live = sut.query('SELECT 1 AS one').then(() => order.push('live'));
    await Promise.all([...background, live]);
    // Old code: first in, first out, so the live statement came last.
    expect(order.indexOf('live')).toBeLessThanOrEqual(1);
    expect(order.filter((o) => o !== 'live')).toEqual([0, 1, 2, 3].map((i) => `background ${i}`));
  });

  it('a background transaction takes its turn as a whole, and live work still runs', async () => {
    const order: string[] = [];
    const tx = inBackground(() =>
      sut.transaction(async (t) => {
        await t.query(busy);
        order.push('transaction');
      }),
    );
    const after = inBackground(() => sut.query('SELECT 2 AS two')).then(() =>
      order.push('background after'),
    );
    const live = sut.query('SELECT 1 AS one').then(() => order.push('live'));
    await Promise.all([tx, after, live]);
    expect(order.indexOf('background after')).toBe(2); // waited for the transaction's turn
    expect(await sut.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('a background statement that cannot get its turn in time fails as database_timeout', async () => {
    const short = await PgliteClient.open({
      dataDir: 'memory://',
      sessionSettings: '',
      statementTimeoutMs: 50,
    });
    try {
      const slow = 'SELECT count(*) AS n FROM generate_series(1, 3000000)';
      const first = inBackground(() => short.query(slow)).catch((e: unknown) => e);
      const second = inBackground(() => short.query('SELECT 1 AS one')).catch((e: unknown) => e);
      expect(await second).toMatchObject({ code: 'database_timeout' });
      await first;
    } finally {
      await short.close();
    }
  }, 60_000);
});
