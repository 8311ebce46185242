import { Database, MigrationHistoryEntity } from '@app/database';
import { EmbeddingService } from '@app/embedding';
import { type Command } from 'commander';

import { withAppContext } from './cli-context';

export interface MigrateReport {
  engine: 'pglite' | 'postgres';
  /** What this run applied, in order. */
  applied: readonly string[];
  /** Every migration the database now records, oldest first. */
  history: string[];
}

/**
 * Applies the pending schema migrations to DATABASE_URL (or the PGlite DATA_DIR) with the
 * migrator a boot uses (its advisory lock included, so it is safe beside running replicas).
 */
export async function migrateCommand(): Promise<MigrateReport> {
  return withAppContext(async (ctx) => {
    const database = ctx.get(Database);
    const { provider, model, dimension } = await ctx.get(EmbeddingService).whenReady();
    // The boot's opener may still be retrying an unreachable server: this open fails with why.
    await database.open(dimension, { provider, model });
    const history = await database.dataSource
      .getRepository(MigrationHistoryEntity)
      .find({ order: { timestamp: 'ASC' } });
    return {
      engine: database.engine,
      applied: database.appliedMigrations,
      history: history.map((m) => m.name),
    };
  });
}

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description(
      'apply pending schema migrations to DATABASE_URL (or DATA_DIR) and print what ran; ' +
        'the service also does this at boot',
    )
    .action(async () => {
      process.stdout.write(`${JSON.stringify(await migrateCommand(), null, 2)}\n`);
    });
}
