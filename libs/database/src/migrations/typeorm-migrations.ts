import { type MigrationInterface, type QueryRunner } from 'typeorm';

import { type SqlExecutor } from '../interfaces/sql-client.interface';
import { type Migration } from './migration';
import { applyUnderLock } from './migrator';

/**
 * The {@link SqlExecutor} port over a TypeORM query runner. TypeORM's Postgres runner answers
 * UPDATE/DELETE with `[rows, rowCount]` and everything else with rows: the structured result
 * hides that, so a step runs the same under the boot migrator and under the TypeORM CLI.
 */
export function queryRunnerExecutor(runner: QueryRunner): SqlExecutor {
  return {
    query: async <T>(sql: string, params?: unknown[]) =>
      ((await runner.query(sql, params, true)) as { records: T[] }).records ?? [],
    execute: async (sql: string, params?: unknown[]) =>
      ((await runner.query(sql, params, true)) as { affected?: number }).affected ?? 0,
    exec: async (script: string) => {
      await runner.query(script); // no parameters: pg's simple protocol runs every statement
    },
  };
}

/**
 * A schema step as a TypeORM migration class, named as the `migrations` table records it,
 * so `typeorm migration:show|run` sees exactly what the boot migrator applied, and applies it
 * under the same advisory lock. Run it with `migrationsTransactionMode: 'each'` (the lock is
 * the step's transaction's). Most steps are
 * forward-only (they move data, drop columns): their `down` refuses rather than guess.
 */
export function asTypeOrmMigration(step: Migration): new () => MigrationInterface {
  const migration = class implements MigrationInterface {
    readonly name = step.name;

    async up(runner: QueryRunner): Promise<void> {
      // The boot migrator's lock and check: a replica booting beside `migration:run` waits
      // here, and a step it applied meanwhile is refused rather than run twice (TypeORM read
      // its pending list before the lock, and would record the step again).
      if (!(await applyUnderLock(queryRunnerExecutor(runner), step))) {
        throw new Error(
          `${step.name} was applied by another process while this one waited for the ` +
            'migration lock: run migration:run again to continue',
        );
      }
    }

    async down(runner: QueryRunner): Promise<void> {
      if (!step.down) {
        throw new Error(`${step.name} is forward-only: restore a backup to go back past it`);
      }
      await step.down(queryRunnerExecutor(runner));
    }
  };
  Object.defineProperty(migration, 'name', { value: step.name });
  return migration;
}
