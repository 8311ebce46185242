import { Database, type DatabaseScope, withDatabaseScope } from '@app/database';

import { ConversationMessageEntity } from '../libs/database/src/entities/conversation.entities';
import { TEST_ENGINE } from './support/postgres';
import { INSERT, LOCATIONS, message, ownedServerDatabase, seen } from './support/row-security';

/**
 * How each statement gets its scope, and that no way of skipping it lets a scope reach
 * another caller's statement. PGlite's one session is only ever sent statements by its
 * worker, which therefore knows the scope the session holds and sends the scope statement
 * only when a statement's differs; a server connection is scoped per statement or
 * transaction, so nothing lingers on it for a connection the service did not scope.
 */
const A: DatabaseScope = { kind: 'locations', locations: ['loc_a'] };
const B: DatabaseScope = { kind: 'locations', locations: ['loc_b'] };
const EVERY: DatabaseScope = { kind: 'every' };
const as = <T>(scope: DatabaseScope, work: () => Promise<T>) => withDatabaseScope(scope, work);

/** How many times the session has run its prepared scope statement. */
const SCOPE_RUNS = `SELECT coalesce(sum(generic_plans + custom_plans), 0)::int AS runs
  FROM pg_prepared_statements WHERE statement LIKE '%set_config(''app.locations''%'`;

describe(`row-level security scope statements on ${TEST_ENGINE}`, () => {
  let sut: Database;
  let drop: () => Promise<void> = () => Promise.resolve();
  const scopeRuns = async (scope: DatabaseScope) =>
    (await as(scope, () => sut.query<{ runs: number }>(SCOPE_RUNS)))[0].runs;

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (TEST_ENGINE === 'postgres') {
      const owned = await ownedServerDatabase();
      databaseUrl = owned.url;
      drop = owned.drop;
    }
    // One server connection: every statement shares it, as every statement shares PGlite's.
    sut = new Database({ dataDir: 'memory://', databaseUrl, poolMax: 1 });
    await sut.open(4);
    await sut.execute(INSERT, message('m_a', 'loc_a'));
    await sut.execute(INSERT, message('m_b', 'loc_b'));
  });

  afterAll(async () => {
    await sut.close();
    await drop();
  });

  it('sends a statement’s scope only when the session does not hold it (PGlite), with every statement on a server', async () => {
    const before = await scopeRuns(A);
    expect(seen(await as(A, () => sut.query(LOCATIONS)))).toEqual(['loc_a']);
    expect(seen(await as(A, () => sut.queryPrepared(LOCATIONS)))).toEqual(['loc_a']);
    await as(A, () => sut.execute(`UPDATE conversation_messages SET text = text WHERE false`));
    const held = await scopeRuns(A);
    expect(seen(await as(B, () => sut.query(LOCATIONS)))).toEqual(['loc_b']);
    const switched = await scopeRuns(B);
    // Three statements and the count itself, all in A; then one in B and its count.
    expect({ held: held - before, switched: switched - held }).toEqual(
      TEST_ENGINE === 'pglite' ? { held: 0, switched: 1 } : { held: 4, switched: 2 },
    );
  });

  it('scopes a statement again after one that failed while switching scope', async () => {
    expect(seen(await as(A, () => sut.query(LOCATIONS)))).toEqual(['loc_a']);
    // The failed statement's transaction undoes the switch to B: the session is A's again.
    await expect(as(B, () => sut.query('SELECT 1 / 0'))).rejects.toMatchObject({
      code: '22012',
    });
    expect(seen(await as(B, () => sut.query(LOCATIONS)))).toEqual(['loc_b']);
    await expect(as(A, () => sut.queryPrepared('SELECT 1 / 0'))).rejects.toBeDefined();
    expect(seen(await as(A, () => sut.queryPrepared(LOCATIONS)))).toEqual(['loc_a']);
    // B's own row again: a key violation (ids are per location since migration 21).
    await expect(as(B, () => sut.execute(INSERT, message('m_b', 'loc_b')))).rejects.toBeDefined();
    expect(seen(await as(B, () => sut.query(LOCATIONS)))).toEqual(['loc_b']);
  });

  it('never lets an every-location session reach a bound caller’s reads, writes or transactions', async () => {
    expect(seen(await sut.query(LOCATIONS))).toEqual(['loc_a', 'loc_b']); // the service's own
    expect(seen(await as(A, () => sut.query(LOCATIONS)))).toEqual(['loc_a']);
    expect(seen(await as(EVERY, () => sut.queryPrepared(LOCATIONS)))).toEqual(['loc_a', 'loc_b']);
    expect(seen(await as(B, () => sut.queryPrepared(LOCATIONS)))).toEqual(['loc_b']);
    expect(seen(await as(EVERY, () => sut.query(LOCATIONS)))).toEqual(['loc_a', 'loc_b']);
    expect(seen(await as(A, () => sut.transaction((tx) => tx.query(LOCATIONS))))).toEqual([
      'loc_a',
    ]);
    // The transaction's scope ended with it: the session's every-location value is back.
    expect(seen(await as(EVERY, () => sut.query(LOCATIONS)))).toEqual(['loc_a', 'loc_b']);
    const orm = await as(B, () =>
      sut.dataSource.getRepository(ConversationMessageEntity).find({ order: { messageId: 'ASC' } }),
    );
    expect(orm.map((m) => m.locationUid)).toEqual(['loc_b']);
    await expect(
      as(A, () =>
        sut.transaction(async (tx) => {
          await tx.query(LOCATIONS);
          await tx.query('SELECT 1 / 0');
        }),
      ),
    ).rejects.toBeDefined();
    expect(seen(await as(EVERY, () => sut.query(LOCATIONS)))).toEqual(['loc_a', 'loc_b']);
    // A bound caller after the service's own work: other locations' rows stay out of reach.
    await expect(as(A, () => sut.execute(INSERT, message('m_x', 'loc_b')))).rejects.toMatchObject({
      code: '42501',
    });
    const moved = await as(A, () =>
      sut.execute(`UPDATE conversation_messages SET text = 'x' WHERE location_uid = 'loc_b'`),
    );
    expect(moved).toBe(0);
    expect(seen(await as(A, () => sut.query(LOCATIONS)))).toEqual(['loc_a']);
  });
});
