import { ConfigurationError } from '@app/common';

import { type SqlClient, type SqlExecutor } from '../interfaces/sql-client.interface';
import { type Migration } from './migration';

/** Serialises migrations across replicas starting at once on one server ("cbmg"). */
const MIGRATION_LOCK = 0x63626d67;

// The table TypeORM created for 0.1.0, unchanged, so those databases are recognised.
const HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS migrations (
  id SERIAL PRIMARY KEY, "timestamp" bigint NOT NULL, name varchar NOT NULL)`;

const timestampOf = (name: string): number => Number(/(\d{13})$/.exec(name)?.[1] ?? 0);

/**
 * Applies the pending migrations in order, each in its own transaction under an advisory
 * lock (a replica that waited re-checks, so a step never runs twice). Returns the names
 * applied. A database that has steps this build does not know was migrated by a newer
 * version: refusing is safer than serving a schema we cannot read.
 */
export async function migrate(client: SqlClient, migrations: Migration[]): Promise<string[]> {
  await client.transaction(async (tx) => {
    await lock(tx);
    await tx.exec(HISTORY_TABLE);
  });
  const applied = new Set(
    (await client.query<{ name: string }>('SELECT name FROM migrations')).map((r) => r.name),
  );
  const known = new Set(migrations.map((m) => m.name));
  const unknown = [...applied].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `The database was migrated by a newer version of the service (${unknown.join(', ')}). ` +
        `Run that version, or point DATA_DIR/DATABASE_URL at another database.`,
    );
  }
  const ran: string[] = [];
  for (const migration of migrations.filter((m) => !applied.has(m.name))) {
    const didRun = await client.transaction(async (tx) => {
      if (!(await applyUnderLock(tx, migration))) {
        return false; // another replica applied it while we waited for the lock
      }
      await tx.execute('INSERT INTO migrations ("timestamp", name) VALUES ($1, $2)', [
        timestampOf(migration.name),
        migration.name,
      ]);
      return true;
    });
    if (didRun) {
      ran.push(migration.name);
    }
  }
  return ran;
}

/**
 * One step inside the caller's transaction, under the migration lock: false (and nothing run)
 * when the `migrations` table already records it, because another process applied it while
 * this one waited. The boot migrator and the TypeORM CLI's classes both go through here, so
 * they serialise on the same lock and never apply a step twice.
 */
export async function applyUnderLock(tx: SqlExecutor, migration: Migration): Promise<boolean> {
  await lock(tx);
  const done = await tx.query('SELECT 1 FROM migrations WHERE name = $1', [migration.name]);
  if (done.length > 0) {
    return false;
  }
  // A schema step is the service's own work: every location, whatever the caller (the boot
  // migrator is unscoped already; the TypeORM CLI's connection sets nothing, and under
  // row-level security a step that moves data would otherwise see no tenant row).
  await tx.query(`SELECT set_config('app.locations', '*', true)`);
  await migration.up(tx);
  return true;
}

async function lock(tx: SqlExecutor): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
}
