import { Database, type DatabaseScope, withDatabaseScope } from '@app/database';
import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { type Pool } from 'pg';

import { ConversationMessageEntity } from '../libs/database/src/entities/conversation.entities';
import { generateApiKey } from '../src/config/api-key-entries';
import { bootTestAppWith, postJson, type TestApp } from './support/app';
import { TEST_ENGINE } from './support/postgres';
import { INSERT, LOCATIONS, message, ownedServerDatabase, seen } from './support/row-security';

/**
 * Row-level security on this project's engine: the database itself keeps a location-bound
 * scope to its locations when the SQL has no location filter at all, for every way the
 * service reaches it (statements, prepared reads, transactions, scripts, TypeORM), and on a
 * server a scope never outlives its statement or transaction on a shared connection (PGlite's
 * one session keeps the last: row-security-scope.e2e-spec.ts). On a server the
 * service connects as the tables' owner, neither superuser nor BYPASSRLS (FORCE makes the
 * owner subject); PGlite's session takes such a role itself.
 */
const DIMENSION = 4;
const A: DatabaseScope = { kind: 'locations', locations: ['loc_a'] };
const B: DatabaseScope = { kind: 'locations', locations: ['loc_b'] };
const EVERY: DatabaseScope = { kind: 'every' };

describe(`row-level security on ${TEST_ENGINE}`, () => {
  let sut: Database;
  let drop: () => Promise<void> = () => Promise.resolve();

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (TEST_ENGINE === 'postgres') {
      const owned = await ownedServerDatabase();
      databaseUrl = owned.url;
      drop = owned.drop;
    }
    // One server connection: every statement shares it, so a scope that lingered would show.
    sut = new Database({ dataDir: 'memory://', databaseUrl, poolMax: 1 });
    await sut.open(DIMENSION);
    await sut.execute(INSERT, message('m_a', 'loc_a'));
    await sut.execute(INSERT, message('m_b', 'loc_b'));
  });

  afterAll(async () => {
    await sut.close();
    await drop();
  });

  it('runs as a role the policies apply to: the tables’ owner, neither superuser nor BYPASSRLS', async () => {
    const [row] = await sut.query<{ owner: boolean; bypass: boolean; forced: boolean }>(
      `SELECT c.relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user) AS owner,
         r.rolsuper OR r.rolbypassrls AS bypass, c.relforcerowsecurity AS forced
       FROM pg_class c, pg_roles r
       WHERE c.oid = 'conversation_messages'::regclass AND r.rolname = current_user`,
    );
    expect(row).toEqual({ owner: true, bypass: false, forced: true });
  });

  it('forces a policy on every table that names a contact or a location, and on the webhook inbox', async () => {
    const tables = await sut.query<{ table: string; forced: boolean }>(
      `SELECT DISTINCT c.relname AS table, c.relrowsecurity AND c.relforcerowsecurity AS forced
       FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
       WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND NOT a.attisdropped
         AND (a.attname IN ('contact_uid', 'location_uid', 'location_uids')
           OR c.relname = 'podium_webhook_events')
       ORDER BY 1`,
    );
    expect(tables.filter((t) => !t.forced)).toEqual([]);
    expect(tables.length).toBeGreaterThanOrEqual(15);
  });

  it('shows a bound scope only its locations when the SQL has no location filter', async () => {
    const as = <T>(scope: DatabaseScope, work: () => Promise<T>) => withDatabaseScope(scope, work);
    expect(seen(await as(A, () => sut.query(LOCATIONS)))).toEqual(['loc_a']);
    expect(seen(await as(B, () => sut.queryPrepared(LOCATIONS)))).toEqual(['loc_b']);
    expect(seen(await as(A, () => sut.transaction((tx) => tx.query(LOCATIONS))))).toEqual([
      'loc_a',
    ]);
    const orm = await as(B, () =>
      sut.dataSource.getRepository(ConversationMessageEntity).find({ order: { messageId: 'ASC' } }),
    );
    expect(orm.map((m) => m.locationUid)).toEqual(['loc_b']);
    const ormTx = await as(A, () =>
      sut.dataSource.transaction((m) => m.getRepository(ConversationMessageEntity).count()),
    );
    expect(ormTx).toBe(1);
    // Unbound callers and the service's own work see every location.
    expect(seen(await as(EVERY, () => sut.query(LOCATIONS)))).toEqual(['loc_a', 'loc_b']);
    expect(seen(await sut.query(LOCATIONS))).toEqual(['loc_a', 'loc_b']);
  });

  it('checks a bound scope’s postings by probing their windows, never by reading every window', async () => {
    const plan = await withDatabaseScope(A, () =>
      sut.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT doc_id FROM podium_conversations_terms WHERE term = ANY($1::text[])`,
        [['espresso', 'machine']],
      ),
    );
    const text = plan.map((r) => r['QUERY PLAN']).join('\n');
    expect(text).toMatch(/SubPlan/);
    expect(text).not.toMatch(/hashed SubPlan/);
  });

  it('leaves a CTE over a per-contact table to the planner to inline, in every scope', async () => {
    // A volatile policy function fenced such CTEs, and the searches' plans with them.
    const plan = (scope: DatabaseScope) =>
      withDatabaseScope(scope, () =>
        sut.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN WITH s AS (SELECT docs FROM lexical_contact_stats WHERE contact_uid = $1)
           SELECT docs FROM s`,
          ['ctc_shared'],
        ),
      );
    for (const scope of [A, EVERY]) {
      const text = (await plan(scope)).map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/lexical_contact_stats/);
      expect(text).not.toMatch(/CTE s\b/);
    }
  });

  it('refuses a bound scope’s writes to another location, and its updates and deletes miss them', async () => {
    await expect(
      withDatabaseScope(A, () => sut.execute(INSERT, message('m_x', 'loc_b'))),
    ).rejects.toMatchObject({ code: '42501' });
    const moved = await withDatabaseScope(A, () =>
      sut.execute(`UPDATE conversation_messages SET location_uid = 'loc_a'`),
    );
    const deleted = await withDatabaseScope(A, () =>
      sut.transaction((tx) => tx.execute(`DELETE FROM conversation_messages WHERE text <> ''`)),
    );
    expect({ moved, deleted }).toEqual({ moved: 1, deleted: 1 });
    expect(seen(await sut.query(LOCATIONS))).toEqual(['loc_b']);
    await sut.execute(INSERT, message('m_a', 'loc_a'));
  });

  it('passes hostile location values through as data: quotes, commas, braces, backslashes', async () => {
    const hostile = [`a",loc_b`, 'loc_b}', '{loc_b', `x\\",\\`, "o'neil", 'NULL', '*'];
    const [row] = await withDatabaseScope({ kind: 'locations', locations: hostile }, () =>
      sut.query<{ locations: string[] }>(`SELECT rls_locations() AS locations`),
    );
    expect(row.locations).toEqual(hostile);
    const rows = await withDatabaseScope({ kind: 'locations', locations: hostile }, () =>
      sut.query(LOCATIONS),
    );
    expect(rows).toEqual([]);
  });

  it('shows nothing to a transaction whose scope is unset or empty (fail closed)', async () => {
    const rows = await sut.transaction(async (tx) => {
      await tx.query(`SELECT set_config('app.locations', '', true)`);
      return tx.query(LOCATIONS);
    });
    expect(rows).toEqual([]);
  });

  it('keeps interleaved scopes apart on shared connections, and leaves none behind', async () => {
    const scopes = Array.from({ length: 24 }, (_, i) => [A, B, EVERY][i % 3]);
    const answers = await Promise.all(
      scopes.map((scope, i) =>
        withDatabaseScope(scope, () =>
          i % 2
            ? sut.query<{ location_uid: string }>(LOCATIONS)
            : sut.transaction((tx) => tx.query<{ location_uid: string }>(LOCATIONS)),
        ),
      ),
    );
    answers.forEach((rows, i) => {
      const scope = scopes[i];
      expect(seen(rows)).toEqual(scope.kind === 'every' ? ['loc_a', 'loc_b'] : scope.locations);
    });
    if (TEST_ENGINE === 'postgres') {
      // The pool's one connection, taken raw: no setting survived its statements.
      const pool = (sut as unknown as { client: { pool: Pool } }).client.pool;
      const raw = await pool.connect();
      try {
        const { rows } = await raw.query<{ v: string | null }>(
          `SELECT current_setting('app.locations', true) AS v`,
        );
        expect(rows[0].v ?? '').toBe('');
        expect((await raw.query(LOCATIONS)).rows).toEqual([]);
      } finally {
        raw.release();
      }
    }
  });

  it('parses the scope statement once per connection, and scopes correctly after a failed statement', async () => {
    await expect(withDatabaseScope(A, () => sut.query('SELECT 1 / 0'))).rejects.toBeDefined();
    expect(seen(await withDatabaseScope(A, () => sut.query(LOCATIONS)))).toEqual(['loc_a']);
    expect(seen(await withDatabaseScope(B, () => sut.queryPrepared(LOCATIONS)))).toEqual(['loc_b']);
    await expect(withDatabaseScope(B, () => sut.query('SELECT 1 / 0'))).rejects.toBeDefined();
    const [row] = await withDatabaseScope(A, () =>
      sut.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_prepared_statements
         WHERE statement LIKE '%set_config(''app.locations''%'`,
      ),
    );
    // One connection (poolMax 1): one prepared scope statement, re-bound for every statement.
    expect(row.n).toBe(1);
    expect(seen(await withDatabaseScope(EVERY, () => sut.query(LOCATIONS)))).toEqual([
      'loc_a',
      'loc_b',
    ]);
  });

  it('turned off, lets every statement through without a setting', async () => {
    const owned = TEST_ENGINE === 'postgres' ? await ownedServerDatabase() : undefined;
    const off = new Database({
      dataDir: 'memory://',
      databaseUrl: owned?.url,
      rowSecurity: false,
    });
    try {
      await off.open(DIMENSION);
      await off.execute(INSERT, message('m_a', 'loc_a'));
      await off.execute(INSERT, message('m_b', 'loc_b'));
      expect(seen(await withDatabaseScope(A, () => off.query(LOCATIONS)))).toEqual([
        'loc_a',
        'loc_b',
      ]);
    } finally {
      await off.close();
      await owned?.drop();
    }
  });
});

/**
 * A route whose SQL forgot the location filter: what the database lets through is all that
 * keeps a bound key to its locations.
 */
@Controller('rls-probe')
class UnfilteredController {
  constructor(private readonly database: Database) {}

  @Post()
  @HttpCode(200)
  async locations(): Promise<string[]> {
    // Later in the request, after an await: the scope follows the request's async work.
    await new Promise((resolve) => setImmediate(resolve));
    return seen(await this.database.query<{ location_uid: string }>(LOCATIONS));
  }
}
@Module({ controllers: [UnfilteredController] })
class UnfilteredModule {}

describe(`row-level security behind the HTTP API on ${TEST_ENGINE}`, () => {
  const tenantA = generateApiKey('tenant-a', ['loc_a']);
  const ops = generateApiKey('ops');
  let t: TestApp;
  let drop: () => Promise<void> = () => Promise.resolve();
  const probe = async (key: { key: string }) =>
    (await postJson<string[]>(`${t.url}/rls-probe`, {}, { 'x-api-key': key.key })).body;

  beforeAll(async () => {
    const env: Record<string, string> = { API_KEYS: [tenantA.line, ops.line].join(',') };
    if (TEST_ENGINE === 'postgres') {
      const owned = await ownedServerDatabase();
      env.DATABASE_URL = owned.url;
      drop = owned.drop;
    }
    t = await bootTestAppWith(env, [UnfilteredModule]);
    const database = t.app.get(Database);
    await database.execute(INSERT, message('m_a', 'loc_a'));
    await database.execute(INSERT, message('m_b', 'loc_b'));
  });

  afterAll(async () => {
    await t?.close();
    await drop();
  });

  it('keeps a location-bound key’s unfiltered statement to its locations; an unbound key sees all', async () => {
    expect(await probe(tenantA)).toEqual(['loc_a']);
    expect(await probe(ops)).toEqual(['loc_a', 'loc_b']);
    // Requests interleaved on the same connections keep their own scopes.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => probe(i % 2 ? ops : tenantA)),
    );
    answers.forEach((locations, i) =>
      expect(locations).toEqual(i % 2 ? ['loc_a', 'loc_b'] : ['loc_a']),
    );
  });
});
