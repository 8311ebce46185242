import { ConfigurationError } from '@app/common';
import { Logger } from '@nestjs/common';
import { type DataSource } from 'typeorm';

import { type PgConnection, openPgConnection } from './data-source';
import { initialSchemaMigration } from './migrations/1700000000000-initial-schema';
import { PodiumContacts1700000000001 } from './migrations/1700000000001-podium-contacts';
import { PodiumWebhookEvents1700000000002 } from './migrations/1700000000002-podium-webhook-events';
import { PodiumContactTombstones1700000000003 } from './migrations/1700000000003-podium-contact-tombstones';

/** What queries need: parameterised SQL returning rows. */
export interface SqlExecutor {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface DatabaseOptions {
  /** Embedded PGlite data dir (`memory://` for RAM); used when no databaseUrl is set. */
  dataDir: string;
  databaseUrl?: string;
}

/**
 * The service's Postgres (embedded PGlite or `DATABASE_URL`) and its schema. Vector columns
 * are `vector(N)`, so opening needs the embedder's dimension: the first `open(dimension)`
 * connects, checks the stored dimension, and runs the migrations; later callers share it.
 */
export class Database {
  private readonly logger = new Logger(Database.name);
  private connection?: PgConnection;
  private opening?: Promise<DataSource>;
  private signalOpen!: (ds: DataSource) => void;
  private readonly opened = new Promise<DataSource>((resolve) => (this.signalOpen = resolve));

  constructor(private readonly options: DatabaseOptions) {}

  open(dimension: number): Promise<DataSource> {
    this.opening ??= this.connect(dimension);
    return this.opening;
  }

  /** Resolves once someone has opened the database (consumers that do not know the dimension). */
  whenOpen(): Promise<DataSource> {
    return this.opened;
  }

  /**
   * Runs one statement. Embedded mode talks to PGlite directly: its node-postgres adapter
   * costs several ms per query (measured: 12 ms against 4.5 ms for the same 22-row select),
   * which is most of a hot-path budget. TypeORM stays for migrations and the server path.
   */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const connection = this.requireConnection();
    if (connection.embedded) {
      return (await connection.embedded.query<T>(sql, params)).rows;
    }
    return connection.dataSource.query(sql, params);
  }

  /** Runs `work` in one transaction (PGlite's own, which also holds its query lock). */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const connection = this.requireConnection();
    if (connection.embedded) {
      return connection.embedded.transaction((tx) =>
        work({
          query: async <R>(sql: string, params?: unknown[]) =>
            (await tx.query<R>(sql, params)).rows,
        }),
      );
    }
    return connection.dataSource.transaction((manager) =>
      work({
        query: <R>(sql: string, params?: unknown[]) => manager.query<R[]>(sql, params),
      }),
    );
  }

  private requireConnection(): PgConnection {
    if (!this.connection) {
      throw new Error('Database used before open()');
    }
    return this.connection;
  }

  get dataSource(): DataSource {
    if (!this.connection) {
      throw new Error('Database used before open()');
    }
    return this.connection.dataSource;
  }

  get isOpen(): boolean {
    return this.connection?.dataSource.isInitialized ?? false;
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    this.opening = undefined;
    if (connection?.dataSource.isInitialized) {
      await connection.dataSource.destroy();
    }
    await connection?.embedded?.close();
    connection?.unlock?.();
  }

  private async connect(dimension: number): Promise<DataSource> {
    this.connection = await openPgConnection({
      ...this.options,
      migrations: [
        initialSchemaMigration(dimension),
        PodiumContacts1700000000001,
        PodiumWebhookEvents1700000000002,
        PodiumContactTombstones1700000000003,
      ],
    });
    const dataSource = this.connection.dataSource;
    try {
      await this.assertDimension(dataSource, dimension);
      const ran = await dataSource.runMigrations({ transaction: 'each' });
      ran.forEach((m) => this.logger.log(`migration applied: ${m.name}`));
    } catch (error) {
      await this.close();
      throw error;
    }
    this.logger.log(
      this.connection.embedded
        ? `embedded PGlite + pgvector at ${this.options.dataDir}`
        : 'connected to Postgres (DATABASE_URL)',
    );
    this.signalOpen(dataSource);
    return dataSource;
  }

  /** Fails fast, with the fix, when the tables were built for another embedding model. */
  private async assertDimension(dataSource: DataSource, expected: number): Promise<void> {
    const rows: Array<{ type: string }> = await dataSource.query(
      `SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
       WHERE a.attrelid = to_regclass('podium_conversations') AND a.attname = 'embedding'`,
    );
    const actual = Number(/vector\((\d+)\)/.exec(rows[0]?.type ?? '')?.[1]);
    if (rows.length > 0 && actual !== expected) {
      throw new ConfigurationError(
        `Vector dimension mismatch: the store holds ${actual}-d vectors but the embedder ` +
          `produces ${expected}-d. Use the embedding model the data was ingested with, or ` +
          `point DATA_DIR/DATABASE_URL at a new database and re-ingest.`,
      );
    }
  }
}
