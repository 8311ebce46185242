/**
 * Per-contact HNSW upkeep on this project's engine. On a Postgres server: built CONCURRENTLY,
 * dropped CONCURRENTLY (no ACCESS EXCLUSIVE on the conversations table, the tracking row
 * removed after the index), and a build in flight cancelled on the server by an abort, so
 * shutdown does not wait for it. On embedded PGlite: not built at all (one session: a build
 * would hold every statement), and search stays exact.
 */
import { contentHash, uuidFromHash, withDeadline } from '@app/common';
import { Database } from '@app/database';
import { PgVectorStore, type VectorRecord } from '@app/vector';
import { Client } from 'pg';

import {
  LargeContactIndexes,
  WRITES_SETTLED_MS,
} from '../libs/vector/src/pgvector/large-contact-indexes';
import { type StoreBootstrap } from '../src/retrieval/store-bootstrap.service';
import { StoreMaintenance } from '../src/retrieval/store-maintenance.service';
import { engineEnv, TEST_ENGINE } from './support/postgres';
import { waitFor } from './support/wait';

/** Longest a test waits for what, on the old code, never happens. */
const NEVER_MS = 10_000;

const vec = (axis: number, tilt = 0): number[] => {
  const v = Array.from({ length: 8 }, (_, i) => (i === axis ? 1 : i === (axis + 1) % 8 ? tilt : 0));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};

const row = (
  n: number,
  contact: string,
  axis: number,
  tilt: number,
): VectorRecord<'conversations'> => ({
  id: uuidFromHash(contentHash(String(n))),
  content: `row ${n}`,
  embedding: vec(axis, tilt),
  payload: {
    contact_uid: contact,
    location_uid: 'loc_1',
    conversation_uid: `conv_${n}`,
    channel: 'sms',
    occurred_at: new Date(Date.UTC(2026, 0, 1 + (n % 300))).toISOString(),
  },
});

describe(`per-contact HNSW indexes on ${TEST_ENGINE}`, () => {
  let database: Database;
  let url: string | undefined;
  let release: () => Promise<void>;
  let sut: PgVectorStore;
  const query = { embedding: vec(3, 0.4), topK: 20, filter: { contact_uid: 'ctc_busy' } };

  beforeEach(async () => {
    const engine = await engineEnv();
    ({ release } = engine);
    url = engine.env.DATABASE_URL;
    database = new Database({ dataDir: 'memory://', databaseUrl: url });
    // ctc_busy (300 rows) counts as large here (threshold 200).
    sut = new PgVectorStore(database, 200);
    await sut.init(8);
    await sut.upsert(
      'conversations',
      Array.from({ length: 300 }, (_, i) => row(1000 + i, 'ctc_busy', 1 + (i % 6), i / 300)),
    );
  });
  afterEach(async () => {
    await database.close();
    await release();
  });

  const tracked = (contact: string) =>
    database.query<{ ready: boolean; stale: boolean }>(
      `SELECT ready, claimed_at = '-infinity' AS stale FROM large_contact_indexes
       WHERE contact_uid = $1`,
      [contact],
    );
  const indexes = () =>
    database.query<{ valid: boolean }>(
      `SELECT i.indisvalid AS valid FROM pg_index i
       JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname LIKE 'podium_conversations_hnsw_%'`,
    );

  /** The store's index upkeep on a clock of the test's own. */
  const clocked = () => {
    const clock = { now: 1_000_000 };
    return { clock, indexes: new LargeContactIndexes(database, 200, () => clock.now) };
  };

  if (TEST_ENGINE === 'pglite') {
    it('never says upkeep is due on the embedded engine, which builds no index', async () => {
      const { clock, indexes: sut2 } = clocked();
      sut2.noteWrites(['ctc_busy']);
      clock.now += WRITES_SETTLED_MS;
      await expect(sut2.due()).resolves.toBe(false);
    });

    it('builds none on the embedded engine, where a large contact is searched exactly', async () => {
      const exact = await sut.search('conversations', query);
      await expect(sut.maintain()).resolves.toEqual({ created: [], dropped: [] });
      expect(await indexes()).toEqual([]);
      expect(await sut.search('conversations', query)).toEqual(exact);
    });

    it('still drops an index an older version built once its contact is gone', async () => {
      await database.exec(`CREATE INDEX podium_conversations_hnsw_legacy ON podium_conversations
        USING hnsw (embedding vector_cosine_ops) WHERE contact_uid = 'ctc_busy';
        INSERT INTO large_contact_indexes (contact_uid, index_name, ready)
        VALUES ('ctc_busy', 'podium_conversations_hnsw_legacy', true)`);
      await sut.deleteContact('ctc_busy');
      await expect(sut.maintain()).resolves.toEqual({ created: [], dropped: ['ctc_busy'] });
      expect(await indexes()).toEqual([]);
      expect(await tracked('ctc_busy')).toEqual([]);
    });
    return;
  }

  /** A session of its own that holds a table lock in an open transaction until `release`. */
  const holdTable = async (mode: 'ACCESS SHARE' | 'ROW EXCLUSIVE') => {
    const holder = new Client({ connectionString: url });
    await holder.connect();
    await holder.query(`BEGIN; LOCK TABLE podium_conversations IN ${mode} MODE`);
    return {
      release: async () => {
        await holder.query('COMMIT').catch(() => undefined);
        await holder.end();
      },
    };
  };
  const somethingWaits = () =>
    waitFor('a maintenance statement waiting on the open transaction', async () => {
      const [r] = await database.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted`,
      );
      return r.n > 0 ? true : undefined;
    });
  const lockModesOnTable = async () =>
    (
      await database.query<{ mode: string }>(
        `SELECT DISTINCT mode FROM pg_locks WHERE relation = 'podium_conversations'::regclass`,
      )
    ).map((r) => r.mode);

  it('says upkeep is due once writes that took a contact past the threshold settle, not before', async () => {
    const { clock, indexes: sut2 } = clocked();
    sut2.noteWrites(['ctc_busy']);
    clock.now += WRITES_SETTLED_MS - 1;
    await expect(sut2.due()).resolves.toBe(false); // the ingest may still be running
    clock.now += 1;
    await expect(sut2.due()).resolves.toBe(true);
    // The check spent what it saw: nothing new was written since.
    await expect(sut2.due()).resolves.toBe(false);
    await expect(sut2.sync()).resolves.toEqual({ created: ['ctc_busy'], dropped: [] });
    sut2.noteWrites(['ctc_busy']);
    clock.now += WRITES_SETTLED_MS;
    await expect(sut2.due()).resolves.toBe(false); // it has its index now
  });

  it('says nothing is due for writes to contacts under the threshold', async () => {
    await sut.upsert('conversations', [row(1, 'ctc_small', 2, 0)]);
    const { clock, indexes: sut2 } = clocked();
    sut2.noteWrites(['ctc_small', 'ctc_unknown']);
    clock.now += WRITES_SETTLED_MS;
    await expect(sut2.due()).resolves.toBe(false);
  });

  it('the store notes the contacts its writes added windows to, and only those', async () => {
    const noted = jest.spyOn(LargeContactIndexes.prototype, 'noteWrites');
    try {
      await sut.upsert('conversations', [row(2, 'ctc_small', 2, 0)]);
      await sut.upsert('conversations', [row(2, 'ctc_small', 2, 0)]); // nothing new
      await sut.replaceWindows([row(3, 'ctc_other', 2, 0)], { ids: [] });
      expect(noted.mock.calls.map(([uids]) => [...uids])).toEqual([['ctc_small'], ['ctc_other']]);
    } finally {
      noted.mockRestore();
    }
  });

  it('builds one CONCURRENTLY, and search through it finds what the exact sort finds', async () => {
    const exact = await sut.search('conversations', query);
    await expect(sut.maintain()).resolves.toEqual({ created: ['ctc_busy'], dropped: [] });
    expect(await indexes()).toEqual([{ valid: true }]);
    const scores = (await sut.search('conversations', query)).map((h) => h.score);
    expect(scores).toEqual(exact.map((h) => h.score));
  });

  it('drops one CONCURRENTLY: reads go on, no ACCESS EXCLUSIVE, the row goes after the index', async () => {
    await sut.maintain();
    await sut.deleteContact('ctc_busy');
    const reader = await holdTable('ACCESS SHARE');
    let sync: Promise<unknown> | undefined;
    try {
      sync = sut.maintain();
      await somethingWaits();
      expect(await lockModesOnTable()).not.toContain('AccessExclusiveLock');
      // A read that would queue behind a plain DROP INDEX's ACCESS EXCLUSIVE answers.
      const read = await withDeadline(NEVER_MS, () =>
        database.query('SELECT count(*) FROM podium_conversations'),
      );
      expect(read.status).toBe('ok');
      // The index is still there, so its tracking row is too.
      expect(await tracked('ctc_busy')).toEqual([{ ready: false, stale: false }]);
    } finally {
      await reader.release();
    }
    await expect(sync).resolves.toEqual({ created: [], dropped: ['ctc_busy'] });
    expect(await indexes()).toEqual([]);
    expect(await tracked('ctc_busy')).toEqual([]);
  });

  it('cancels a build in flight on abort, leaves its claim stale, and the next sync builds it', async () => {
    const writer = await holdTable('ROW EXCLUSIVE');
    const abort = new AbortController();
    let outcome: Awaited<ReturnType<typeof withDeadline>> | undefined;
    try {
      const sync = sut.maintain(abort.signal);
      await somethingWaits();
      abort.abort();
      outcome = await withDeadline(NEVER_MS, () => sync);
    } finally {
      await writer.release();
    }
    expect(outcome).toMatchObject({ status: 'error', error: { name: 'AbortError' } });
    const building = await database.query(
      `SELECT 1 FROM pg_stat_activity WHERE query ILIKE 'CREATE INDEX%' AND state = 'active'`,
    );
    expect(building).toEqual([]);
    expect(await tracked('ctc_busy')).toEqual([{ ready: false, stale: true }]);
    await expect(sut.maintain()).resolves.toEqual({ created: ['ctc_busy'], dropped: [] });
    expect(await indexes()).toEqual([{ valid: true }]);
    expect(await tracked('ctc_busy')).toEqual([{ ready: true, stale: false }]);
  });

  it('shuts down without waiting for a build in flight', async () => {
    const maintenance = new StoreMaintenance(sut, { ready: true } as StoreBootstrap);
    const writer = await holdTable('ROW EXCLUSIVE');
    try {
      void maintenance.runOnce();
      await somethingWaits();
      const shutdown = await withDeadline(NEVER_MS, () => maintenance.onModuleDestroy());
      expect(shutdown.status).toBe('ok');
    } finally {
      await writer.release();
    }
    expect(await tracked('ctc_busy')).toEqual([{ ready: false, stale: true }]);
  });
});
