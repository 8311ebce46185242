import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { types } from 'node:util';

import { ConfigurationError } from '@app/common';
import { Database, type SqlExecutor } from '@app/database';

import { type Migration } from '../libs/database/src/migrations/migration';

/** How many schema steps a Database opened here applies; all unless a test says otherwise. */
let mockSchemaSteps: number | undefined;
jest.mock('../libs/database/src/migrations/all-migrations', () => {
  const actual = jest.requireActual<{ schemaMigrations(dimension: number): Migration[] }>(
    '../libs/database/src/migrations/all-migrations',
  );
  return {
    schemaMigrations: (dimension: number) =>
      actual.schemaMigrations(dimension).slice(0, mockSchemaSteps),
  };
});

import { openEngineDatabase, preparedEngineDatabase, TEST_ENGINE } from './support/postgres';

/**
 * The database port on this project's engine (PGlite, or a Postgres server in e2e-postgres):
 * result shapes, transactions and migrations. Drivers disagree on shapes (TypeORM's `pg`
 * path answered `UPDATE … RETURNING` with `[rows, rowCount]`), so these pin the contract
 * every raw query relies on.
 */
const DIMENSION = 4;
const PREVIOUS_SCHEMA = readFileSync(join(__dirname, 'fixtures', 'schema-0.1.0.sql'), 'utf8');
const MIGRATIONS = [
  'InitialSchema1700000000000',
  'PodiumContacts1700000000001',
  'PodiumWebhookEvents1700000000002',
  'PodiumContactTombstones1700000000003',
  'ConversationMessages1700000000004',
  'Bm25TermStatistics1700000000005',
  'WebhookLeasesTombstoneTimesPodiumCredentials1700000000006',
  'DropFullTextColumns1700000000007',
  'ScalePostings1700000000008',
  'LargeContactNearest1700000000009',
  'WebhookLeaseOwner1700000000010',
  'BackgroundForget1700000000011',
  'TurnKeysByConversation1700000000012',
  'VectorsInRow1700000000013',
  'ErasureByMembership1700000000014',
  'RowLevelSecurity1700000000015',
  'RowSecurityPostingProbe1700000000016',
  'RowSecurityStableContactCheck1700000000017',
  'EmbeddingModelRecord1700000000018',
  'ReembedProgress1700000000019',
  'LeanLookupIndexes1700000000020',
  'MessageIdsPerLocation1700000000021',
  'ContactTimeIndex1700000000022',
  'NarrowPostingCounts1700000000023',
];

const appliedMigrations = async (db: SqlExecutor) =>
  (await db.query<{ name: string }>('SELECT name FROM migrations ORDER BY id')).map((r) => r.name);

describe(`the SQL port on ${TEST_ENGINE}`, () => {
  let sut: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database: sut, close } = await openEngineDatabase());
    await sut.open(DIMENSION);
    await sut.exec(`CREATE TABLE port_items (id int PRIMARY KEY, label text NOT NULL,
      meta jsonb, at timestamptz NOT NULL DEFAULT now());
      INSERT INTO port_items (id, label) VALUES (1, 'a'), (2, 'b'), (3, 'c')`);
  });
  afterAll(() => close());

  it('query() gives the rows of RETURNING for every kind of write, never a driver tuple', async () => {
    expect(
      await sut.query(`INSERT INTO port_items (id, label) VALUES (4, 'd') RETURNING id, label`),
    ).toEqual([{ id: 4, label: 'd' }]);
    expect(
      await sut.query(`UPDATE port_items SET label = upper(label) WHERE id IN (1, 2)
        RETURNING id, label`),
    ).toEqual(
      expect.arrayContaining([
        { id: 1, label: 'A' },
        { id: 2, label: 'B' },
      ]),
    );
    expect(await sut.query(`DELETE FROM port_items WHERE id = 4 RETURNING id`)).toEqual([
      { id: 4 },
    ]);
    expect(await sut.query(`UPDATE port_items SET label = 'x' WHERE id = 99 RETURNING id`)).toEqual(
      [],
    );
  });

  it('execute() gives the number of rows written', async () => {
    expect(await sut.execute(`INSERT INTO port_items (id, label) VALUES (5, 'e'), (6, 'f')`)).toBe(
      2,
    );
    expect(
      await sut.execute(
        `INSERT INTO port_items (id, label) VALUES (5, 'e') ON CONFLICT DO NOTHING`,
      ),
    ).toBe(0);
    expect(await sut.execute(`UPDATE port_items SET label = $1 WHERE id >= $2`, ['z', 5])).toBe(2);
    expect(await sut.execute(`DELETE FROM port_items WHERE id = ANY($1::int[])`, [[5, 6, 7]])).toBe(
      2,
    );
    expect(await sut.execute(`DELETE FROM port_items WHERE id = 99`)).toBe(0);
  });

  it('decodes the column types the service reads the same way on both engines', async () => {
    await sut.execute(`UPDATE port_items SET meta = $1::jsonb WHERE id = 3`, [
      JSON.stringify({ k: [1, 'two'] }),
    ]);
    const [row] = await sut.query<Record<string, unknown>>(
      `SELECT meta, at, count(*) OVER ()::int AS n, 0.5::float8 AS f, true AS b, NULL AS nothing,
        ARRAY['x','y'] AS arr FROM port_items WHERE id = 3`,
    );
    // A Date either way (isDate: PGlite's rows cross a thread, so not this realm's Date).
    expect(types.isDate(row.at)).toBe(true);
    expect(row).toEqual({
      meta: { k: [1, 'two'] },
      at: row.at,
      n: 1,
      f: 0.5,
      b: true,
      nothing: null,
      arr: ['x', 'y'],
    });
  });

  it('takes one statement per query(); scripts go through exec()', async () => {
    await expect(sut.query('SELECT 1; SELECT 2')).rejects.toThrow();
    await expect(sut.execute('SELECT 1; SELECT 2')).rejects.toThrow();
    await sut.exec('SELECT 1; SELECT 2');
  });

  it('commits a transaction that resolves, rolls back one that throws', async () => {
    const committed = await sut.transaction(async (tx) => {
      await tx.execute(`INSERT INTO port_items (id, label) VALUES (10, 'kept')`);
      return tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM port_items WHERE id = 10`);
    });
    expect(committed).toEqual([{ n: 1 }]);
    await expect(
      sut.transaction(async (tx) => {
        await tx.execute(`INSERT INTO port_items (id, label) VALUES (11, 'lost')`);
        await tx.execute(`UPDATE port_items SET label = 'lost' WHERE id = 10`);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await sut.query(`SELECT id, label FROM port_items WHERE id >= 10 ORDER BY id`)).toEqual([
      { id: 10, label: 'kept' },
    ]);
  });

  describe('queryPrepared() (hot reads as named statements)', () => {
    const byLabel = `SELECT id, label, meta, at, ARRAY[label] AS arr FROM port_items
      WHERE label = ANY($1::text[]) AND id >= $2 ORDER BY id`;

    it('answers exactly as query() does, for every new set of parameters', async () => {
      for (const params of [
        [['a', 'b'], 0],
        [['c'], 3],
        [['none'], 0],
        [['a', 'c'], 2],
      ]) {
        const prepared = await sut.queryPrepared(byLabel, params);
        expect(prepared).toEqual(await sut.query(byLabel, params));
      }
      expect(await sut.queryPrepared(byLabel, [['a', 'c'], 2])).toEqual([
        expect.objectContaining({ id: 3, label: 'c', arr: ['c'] }),
      ]);
    });

    it('passes a Buffer as a binary parameter', async () => {
      const sql = `SELECT length($1::bytea)::int AS n, encode($1::bytea, 'hex') AS hex`;
      expect(await sut.queryPrepared(sql, [Buffer.from([0, 255, 7])])).toEqual([
        { n: 3, hex: '00ff07' },
      ]);
    });

    it('still answers once more distinct statements than it keeps have been seen', async () => {
      for (let k = 0; k < 80; k++) {
        expect(await sut.queryPrepared(`SELECT $1::int + ${k} AS n`, [1])).toEqual([{ n: k + 1 }]);
      }
      expect(await sut.queryPrepared(`SELECT $1::int + 79 AS n`, [2])).toEqual([{ n: 81 }]);
    });

    it('rejects bad input or bad SQL with the database error and keeps the session usable', async () => {
      await expect(sut.queryPrepared(byLabel, [['a'], 'not a number'])).rejects.toMatchObject({
        code: '22P02',
      });
      await expect(sut.queryPrepared('SELECT * FROM no_such_table')).rejects.toMatchObject({
        code: '42P01',
      });
      expect(await sut.queryPrepared(byLabel, [['c'], 0])).toEqual([
        expect.objectContaining({ id: 3 }),
      ]);
    });

    it('sees only committed rows while another caller holds a transaction open', async () => {
      let insideTx!: () => void;
      const txOpen = new Promise<void>((resolve) => (insideTx = resolve));
      let finish!: () => void;
      const release = new Promise<void>((resolve) => (finish = resolve));
      const tx = sut.transaction(async (t) => {
        await t.execute(`INSERT INTO port_items (id, label) VALUES (20, 'uncommitted')`);
        insideTx();
        await release;
        throw new Error('roll back');
      });
      await txOpen;
      const read = sut.queryPrepared(byLabel, [['uncommitted'], 0]);
      finish();
      await expect(tx).rejects.toThrow('roll back');
      expect(await read).toEqual([]);
    });
  });

  it('lets data errors through unchanged (a bug or bad data is not an outage)', async () => {
    await expect(
      sut.execute(`INSERT INTO port_items (id, label) VALUES (1, 'dup')`),
    ).rejects.toThrow(/duplicate key/);
    await expect(sut.query(`SELECT * FROM no_such_table`)).rejects.toMatchObject({
      code: '42P01',
    });
  });
});

describe(`migrations on ${TEST_ENGINE}`, () => {
  it('build the schema on an empty database once; a reopen applies nothing; a newer schema is refused', async () => {
    // One data dir / server database for the whole lifecycle: PGlite on disk opens in seconds.
    const prepared = await preparedEngineDatabase();
    const database = new Database(prepared.options);
    try {
      await database.open(DIMENSION);
      expect(await appliedMigrations(database)).toEqual(MIGRATIONS);
      const tables = await database.query<{ t: string }>(
        `SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
      );
      expect(tables.map((r) => r.t)).toEqual([
        'conversation_messages',
        'conversation_windows',
        'embedding_model',
        'embedding_reembed',
        'erasure_key',
        'erasure_receipts',
        'history_rebuilds',
        'history_tombstones',
        'kb_source_chunks',
        'kb_source_chunks_terms',
        'kb_topic_summaries',
        'kb_topic_summaries_terms',
        'large_contact_indexes',
        'lexical_contact_stats',
        'lexical_contact_term_stats',
        'lexical_doc_stats',
        'lexical_term_stats',
        'migrations',
        'podium_contact_tombstones',
        'podium_contacts',
        'podium_conversation_purges',
        'podium_conversations',
        'podium_conversations_terms',
        'podium_credentials',
        'podium_webhook_events',
      ]);
      await database.execute(`INSERT INTO podium_contact_tombstones (contact_uid) VALUES ('c')`);
      await database.close();

      await database.open(DIMENSION);
      expect(await appliedMigrations(database)).toEqual(MIGRATIONS);
      expect(await database.query('SELECT contact_uid FROM podium_contact_tombstones')).toEqual([
        { contact_uid: 'c' },
      ]);
      await database.execute(
        `INSERT INTO migrations ("timestamp", name) VALUES (1800000000000, 'Future1800000000000')`,
      );
      await database.close();

      const reopen = database.open(DIMENSION);
      await expect(reopen).rejects.toBeInstanceOf(ConfigurationError);
      await expect(reopen).rejects.toThrow(/newer version.*Future1800000000000/);
    } finally {
      await database.close();
      await prepared.release();
    }
  });

  it('upgrade a database the schema steps of 0083b10 left (before the scale work), keeping its rows and statistics', async () => {
    const prepared = await preparedEngineDatabase();
    const database = new Database(prepared.options);
    // 0083b10 shipped the first eight steps (through DropFullTextColumns).
    mockSchemaSteps = 8;
    try {
      await database.open(DIMENSION);
      expect(await appliedMigrations(database)).toEqual(MIGRATIONS.slice(0, 8));
      // What that release wrote: a window with its postings, and a stored message.
      await database.execute(
        `INSERT INTO podium_conversations (id, content, embedding, term_count, contact_uid,
          conversation_uid, channel, occurred_at) VALUES (gen_random_uuid(), 'order shipped',
          '[0.1,0.2,0.3,0.4]', 2, 'ctc_old', 'conv_old', 'sms', now())`,
      );
      await database.execute(
        `INSERT INTO podium_conversations_terms (doc_id, term, tf)
         SELECT id, t, 1 FROM podium_conversations, unnest(ARRAY['order', 'ship']) AS t`,
      );
      await database.execute(
        `INSERT INTO conversation_messages (message_id, turn_key, conversation_uid, contact_uid,
          channel, occurred_at, sender, text)
         VALUES ('m1', 'k1', 'conv_old', 'ctc_old', 'sms', now(), 'customer', 'order shipped')`,
      );
      await database.close();

      mockSchemaSteps = undefined;
      await database.open(DIMENSION);
      expect(await appliedMigrations(database)).toEqual(MIGRATIONS);
      expect(
        await database.query(`SELECT p.term, p.contact_uid, p.doc_len FROM podium_conversations_terms p
          ORDER BY p.term`),
      ).toEqual([
        { term: 'order', contact_uid: 'ctc_old', doc_len: 2 },
        { term: 'ship', contact_uid: 'ctc_old', doc_len: 2 },
      ]);
      expect(
        await database.query(`SELECT docs::int, terms::int FROM lexical_contact_stats
          WHERE contact_uid = 'ctc_old'`),
      ).toEqual([{ docs: 1, terms: 2 }]);
      // The turn lookup by (conversation, key) finds the message stored before the upgrade.
      expect(
        await database.query(`SELECT message_id FROM conversation_messages
          WHERE conversation_uid = 'conv_old' AND turn_key = 'k1'`),
      ).toEqual([{ message_id: 'm1' }]);
    } finally {
      mockSchemaSteps = undefined;
      await database.close();
      await prepared.release();
    }
  });

  it('recognise a database migrated by 0.1.0 (TypeORM) and keep its data', async () => {
    const prepared = await preparedEngineDatabase();
    const database = new Database(prepared.options);
    try {
      await prepared.run(PREVIOUS_SCHEMA);
      await prepared.run(
        `INSERT INTO podium_conversations (id, content, embedding, contact_uid, conversation_uid,
          channel, occurred_at) VALUES (gen_random_uuid(), 'kept across the upgrade',
          array_fill(0.1, ARRAY[512])::vector, 'ctc_old', 'conv_old', 'sms', now())`,
      );
      await database.open(512);
      expect(await appliedMigrations(database)).toEqual(MIGRATIONS);
      expect(await database.query(`SELECT content FROM podium_conversations`)).toEqual([
        { content: 'kept across the upgrade' },
      ]);
      // The old full-text column and its index are gone (BM25 replaced them).
      expect(
        await database.query(`SELECT column_name FROM information_schema.columns
          WHERE table_name = 'podium_conversations' AND column_name = 'tsv'`),
      ).toEqual([]);
      // The BM25 migrations backfilled the old row's postings, the collection totals (summed
      // over their shards) and the contact's own statistics.
      const stats = () =>
        database.query(`SELECT (SELECT sum(docs)::int FROM lexical_doc_stats WHERE collection =
          'conversations') AS docs, (SELECT string_agg(term || ':' || df, ' ' ORDER BY term)
          FROM (SELECT term, sum(df) AS df FROM lexical_term_stats WHERE collection =
          'conversations' GROUP BY term HAVING sum(df) > 0) t) AS df,
          (SELECT string_agg(contact_uid || ':' || docs, ' ') FROM lexical_contact_stats) AS contacts,
          (SELECT string_agg(term || ':' || df, ' ' ORDER BY term)
           FROM lexical_contact_term_stats WHERE contact_uid = 'ctc_old') AS contact_df,
          (SELECT string_agg(contact_uid || ':' || doc_len, ' ')
           FROM podium_conversations_terms WHERE term = 'kept') AS posting`);
      expect(await stats()).toEqual([
        {
          docs: 1,
          df: 'across:1 kept:1 upgrade:1',
          contacts: 'ctc_old:1',
          contact_df: 'across:1 kept:1 upgrade:1',
          posting: 'ctc_old:3',
        },
      ]);
      // Deleting the row (the postings go by cascade) takes it out of the statistics.
      await database.execute(`DELETE FROM podium_conversations WHERE contact_uid = 'ctc_old'`);
      expect(await stats()).toEqual([
        { docs: 0, df: null, contacts: null, contact_df: null, posting: null },
      ]);
    } finally {
      await database.close();
      await prepared.release();
    }
  });
});

const onServer = TEST_ENGINE === 'postgres' ? describe : describe.skip;

onServer('migrations on a shared server', () => {
  it('replicas starting at once apply each step exactly once', async () => {
    const prepared = await preparedEngineDatabase();
    const replicas = [1, 2, 3].map(() => new Database(prepared.options));
    try {
      await Promise.all(replicas.map((r) => r.open(DIMENSION)));
      expect(await appliedMigrations(replicas[0])).toEqual(MIGRATIONS);
    } finally {
      await Promise.all(replicas.map((r) => r.close()));
      await prepared.release();
    }
  });
});
