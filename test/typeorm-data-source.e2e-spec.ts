import { Database } from '@app/database';
import { createServerDataSource, serverStoreDimension } from '@app/database';
import { Client } from 'pg';
import { DataSource, type Logger as TypeOrmLogger } from 'typeorm';

import { schemaMigrations } from '../libs/database/src/migrations/all-migrations';
import { asTypeOrmMigration } from '../libs/database/src/migrations/typeorm-migrations';
import { createServerDatabase, type ServerDatabase } from './support/postgres';
import { waitUntil } from './support/wait';

/**
 * The TypeORM view of the schema on a Postgres server: the data-source file an operator
 * points `npx typeorm migration:show|run` at sees what a boot applied, its entities cover
 * every table column for column, and its migration classes build the schema from empty.
 */
const DIMENSION = 4;

/** migration:show prints through the logger's schema-build channel: capture those lines. */
function capturingDataSource(url: string, lines: string[]): DataSource {
  const logger: TypeOrmLogger = {
    logQuery: () => undefined,
    logQueryError: () => undefined,
    logQuerySlow: () => undefined,
    logSchemaBuild: (message) => void lines.push(message),
    logMigration: () => undefined,
    log: () => undefined,
  };
  return new DataSource({ ...createServerDataSource(url, DIMENSION).options, logger });
}

describe('the TypeORM data source on a Postgres server', () => {
  let server: ServerDatabase;
  let database: Database;

  beforeEach(async () => {
    server = await createServerDatabase();
    database = new Database({ dataDir: 'memory://', databaseUrl: server.url });
  });

  afterEach(async () => {
    await database.close();
    await server.drop();
  });

  it('lists every migration as applied after a boot, and finds every table and column', async () => {
    await database.open(DIMENSION);
    const lines: string[] = [];
    const sut = capturingDataSource(server.url, lines);
    await sut.initialize();
    try {
      const pending = await sut.showMigrations();
      expect(pending).toBe(false);
      const names = sut.migrations.map((m) => m.name);
      expect(lines).toEqual(
        names.map((name): unknown => expect.stringMatching(`^\\[X\\] \\d+ ${name}$`)),
      );

      const tables = await database.query<{ t: string }>(
        `SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
      );
      const entityTables = sut.entityMetadatas.map((m) => m.tableName).sort();
      expect(entityTables).toEqual(tables.map((r) => r.t));
      for (const metadata of sut.entityMetadatas) {
        const columns = await database.query<{ c: string }>(
          `SELECT column_name AS c FROM information_schema.columns
           WHERE table_schema = 'public' AND table_name = $1 ORDER BY 1`,
          [metadata.tableName],
        );
        const entityColumns = metadata.columns.map((c) => c.databaseName).sort();
        expect({ table: metadata.tableName, columns: entityColumns }).toEqual({
          table: metadata.tableName,
          columns: columns.map((r) => r.c).sort(),
        });
      }
    } finally {
      await sut.destroy();
    }
  });

  it("reads the store's own vector size: none when empty, the record, else the column (issue 39)", async () => {
    await expect(serverStoreDimension(server.url)).resolves.toBeNull();
    await database.open(DIMENSION, { provider: 'openai', model: 'text-embedding-3-small' });
    await expect(serverStoreDimension(server.url)).resolves.toBe(DIMENSION);
    // A store from before the record: its column's size.
    await database.exec('DROP TABLE embedding_model');
    await expect(serverStoreDimension(server.url)).resolves.toBe(DIMENSION);
  });

  it('builds the schema from empty with the migration classes, and a boot then applies nothing', async () => {
    const sut = capturingDataSource(server.url, []);
    await sut.initialize();
    try {
      const ran = await sut.runMigrations({ transaction: 'each' });
      expect(ran.map((m) => m.name)).toEqual(sut.migrations.map((m) => m.name));
      expect(await sut.showMigrations()).toBe(false);
    } finally {
      await sut.destroy();
    }
    await database.open(DIMENSION);
    const applied = await database.query<{ name: string }>(
      'SELECT name FROM migrations ORDER BY id',
    );
    expect(applied.map((r) => r.name)).toEqual(sut.migrations.map((m) => m.name));
  });

  it('refuses to revert a forward-only step, leaving it applied', async () => {
    await database.open(DIMENSION);
    const sut = capturingDataSource(server.url, []);
    await sut.initialize();
    try {
      const last = sut.migrations[sut.migrations.length - 1].name ?? '';
      await expect(sut.undoLastMigration({ transaction: 'each' })).rejects.toThrow(
        `${last} is forward-only`,
      );
      const applied = await database.query<{ name: string }>(
        'SELECT name FROM migrations ORDER BY id DESC LIMIT 1',
      );
      expect(applied[0].name).toBe(last);
    } finally {
      await sut.destroy();
    }
  });

  it('reverts a step that loses nothing (13, then 12) and refuses one that would (11)', async () => {
    // A database at step 13, as 0.x left it: the CLI with the steps up to there.
    const upTo13 = (url: string) =>
      new DataSource({
        ...createServerDataSource(url, DIMENSION).options,
        migrations: schemaMigrations(DIMENSION)
          .filter((m) => Number(/(\d{13})$/.exec(m.name)?.[1]) <= 1700000000013)
          .map(asTypeOrmMigration),
      });
    const sut = upTo13(server.url);
    await sut.initialize();
    const query = <T>(sql: string) => sut.query<T[]>(sql);
    const indexes = async () =>
      (
        await query<{ name: string }>(
          `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'conversation_messages'`,
        )
      ).map((r) => r.name);
    const vectorStorage = async () =>
      (
        await query<{ storage: string }>(
          `SELECT attstorage AS storage FROM pg_attribute
           WHERE attrelid = 'podium_conversations'::regclass AND attname = 'embedding'`,
        )
      )[0].storage;
    try {
      await sut.runMigrations({ transaction: 'each' });
      expect(await vectorStorage()).toBe('m');
      await sut.undoLastMigration({ transaction: 'each' });
      expect(await vectorStorage()).toBe('e');
      await sut.undoLastMigration({ transaction: 'each' });
      expect(await indexes()).toContain('conversation_messages_turn_key');
      expect(await indexes()).not.toContain('conversation_messages_conversation_turn');
      await expect(sut.undoLastMigration({ transaction: 'each' })).rejects.toThrow(
        /BackgroundForget1700000000011 is forward-only/,
      );
      const applied = await query<{ name: string }>(
        'SELECT name FROM migrations ORDER BY id DESC LIMIT 1',
      );
      expect(applied[0].name).toBe('BackgroundForget1700000000011');
      // Run again, the reverted steps come back.
      expect((await sut.runMigrations({ transaction: 'each' })).map((m) => m.name)).toEqual([
        'TurnKeysByConversation1700000000012',
        'VectorsInRow1700000000013',
      ]);
      expect(await vectorStorage()).toBe('m');
    } finally {
      await sut.destroy();
    }
  });

  it("applies each step under the boot migrator's lock, and refuses a step another process applied meanwhile", async () => {
    const MIGRATION_LOCK = 0x63626d67; // libs/database/src/migrations/migrator.ts
    const holder = new Client({ connectionString: server.url });
    await holder.connect();
    const sut = capturingDataSource(server.url, []);
    await sut.initialize();
    try {
      // A replica booting: it holds the lock while it applies the first step.
      await holder.query(`CREATE TABLE IF NOT EXISTS migrations (
        id SERIAL PRIMARY KEY, "timestamp" bigint NOT NULL, name varchar NOT NULL)`);
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
      const run = sut.runMigrations({ transaction: 'each' });
      const outcome = run.then(
        () => 'ran',
        (error: Error) => error.message,
      );
      await waitUntil('the CLI to wait for the migration lock', async () => {
        const waiting = await holder.query(
          `SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND objid = $1 AND NOT granted`,
          [MIGRATION_LOCK],
        );
        return waiting.rowCount === 1;
      });
      const first = sut.migrations[0].name ?? '';
      await holder.query('INSERT INTO migrations ("timestamp", name) VALUES ($1, $2)', [
        Number(/(\d{13})$/.exec(first)?.[1]),
        first,
      ]);
      await holder.query('COMMIT');
      expect(await outcome).toMatch(`${first} was applied by another process`);
      const recorded = await holder.query('SELECT name FROM migrations');
      expect(recorded.rows).toEqual([{ name: first }]);
    } finally {
      await sut.destroy();
      await holder.end();
    }
  });
});
