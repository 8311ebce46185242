import { ConfigurationError, withDeadline } from '@app/common';
import { Logger } from '@nestjs/common';
import { type DataSource } from 'typeorm';

import {
  type Leadership,
  LOCK_WAIT_MS,
  type LockScope,
  REPLICA_LOCK_SCOPE,
  whileLeading,
  withAdvisoryLocks,
} from './advisory-locks';
import {
  assertSameModel,
  MODEL_CHANGE_HINT,
  readStoreModel,
  reconcileStoreModel,
  type StoreModel,
  vectorColumnDimension,
} from './embedding-model-record';
import { type EngineHealth, EngineRestart } from './engine-restart';
import { classifyDatabaseError, DatabaseUnavailableError } from './errors';
import {
  type QueryOptions,
  type SqlClient,
  type SqlExecutor,
} from './interfaces/sql-client.interface';
import { schemaMigrations } from './migrations/all-migrations';
import { migrate } from './migrations/migrator';
import { createAppDataSource, initializeAppDataSource } from './orm/app-data-source';
import { LockLane } from './pg/lock-lane';
import { PgClient } from './pg/pg.client';
import { ReplicaPresence } from './pg/replica-presence';
import { PgliteClient } from './pglite/pglite.client';
import { enforceRowSecurity, statementScope, unscopedSession } from './row-security/row-security';
import { assertIndexableDimension, cosineOpclass } from './vector-column';

/** Candidates an HNSW scan considers; it also caps the rows one unfiltered scan returns. */
export const HNSW_EF_SEARCH = 100;
/**
 * A filtered walk of the global HNSW index (a location-scoped key searching without a
 * contact) keeps going until the LIMIT is met instead of returning what the first ef_search
 * candidates left after the filter; the store re-sorts the rows, so relaxed order loses
 * nothing. (A large contact's own index sets this inside `conversations_nearest()`.)
 */
export const HNSW_ITERATIVE_SCAN = 'relaxed_order';

export interface DatabaseOptions {
  /** Embedded PGlite data dir (`memory://` for RAM); used when no databaseUrl is set. */
  dataDir: string;
  databaseUrl?: string;
  /**
   * Row-level security (`DATABASE_ROW_SECURITY`, default on): the database keeps each
   * statement to its caller's locations (migration 15, docs/security.md).
   */
  rowSecurity?: boolean;
  /** Server connections per process (`DATABASE_POOL_MAX`). */
  poolMax?: number;
  /** Server-side cap on one statement (`DATABASE_STATEMENT_TIMEOUT_MS`). */
  statementTimeoutMs?: number;
  /** Longest wait for a server connection (`DATABASE_CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs?: number;
  /**
   * Server connections of the advisory-lock lane, beside the pool: also the most lock
   * holders (ingests, rebuilds, forgets, leader jobs) one process runs at once.
   */
  lockConnections?: number;
  /**
   * Embedded PGlite's `shared_buffers` in MB (`PGLITE_SHARED_BUFFERS_MB`): its page cache
   * inside the worker's WASM memory, which never shrinks once touched.
   */
  pgliteSharedBuffersMb?: number;
}

/** Every default of {@link DatabaseOptions}, applied here. */
export const DEFAULT_DATABASE_OPTIONS = {
  poolMax: 10,
  statementTimeoutMs: 30_000,
  connectTimeoutMs: 5_000,
  lockConnections: 4,
  // Postgres's own default. 32 MB saved up to ~64 MB of the worker's WASM memory but cost
  // ~16% server CPU per /context (every miss is a copy through the engine's file layer, even
  // with the pages in the OS cache): docs/benchmarks.md, "Where the RSS goes".
  pgliteSharedBuffersMb: 128,
} satisfies Partial<DatabaseOptions>;

/** The answer of {@link Database.check}: up, or down with a reason safe to show. */
export type DatabaseHealth = EngineHealth;

/**
 * An embedded engine that has had work and answered nothing for this many statement
 * timeouts is stuck (a WASM statement cannot be interrupted): liveness asks for a restart.
 */
const STALL_TIMEOUTS = 4;

/**
 * The service's Postgres (embedded PGlite or `DATABASE_URL`) and its schema, behind the
 * {@link SqlExecutor} port. Vector columns are `vector(N)`, so opening needs the embedder's
 * dimension: the first `open(dimension)` connects, checks the stored dimension and migrates;
 * later callers share it. In the app, `DatabaseModule` opens it at module init. A server
 * that cannot be reached fails `open` with a retryable `database_unavailable`, and the next
 * `open` tries again. Until it is open, every statement fails with `database_unavailable`.
 *
 * An embedded PGlite worker that dies is replaced: calls in flight fail with
 * `database_unavailable`, the same data dir is reopened (and migrated: `memory://` comes
 * back empty) in a new worker, with backoff ({@link EngineRestart}); {@link liveness} goes
 * down when that keeps failing or the worker stops answering.
 */
export class Database implements SqlExecutor {
  private readonly logger = new Logger(Database.name);
  private client?: SqlClient;
  private presence?: ReplicaPresence;
  /** Where advisory locks are held on a server (none on PGlite); set and cleared with `client`. */
  private lane?: LockLane;
  private opening?: Promise<void>;
  private signalOpen!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.signalOpen = resolve));
  /** The embedder's dimension, from the first open: a replaced engine is opened with it. */
  private dimension?: number;
  /** The embedder's provider and model id, when the opener knows them (the app, the CLI). */
  private model?: Omit<StoreModel, 'dimension'>;
  private readonly restart = new EngineRestart(this.logger, () =>
    this.open(this.dimension as number),
  );

  /**
   * TypeORM over the same connections as the SQL port (see {@link createAppDataSource}),
   * initialized once the schema is migrated; its queries fail with `database_unavailable`
   * while the database is not open.
   */
  readonly dataSource: DataSource = createAppDataSource(() =>
    this.requireClient().ormConnections(),
  );

  /** The migrations the last open applied, in order (none: the schema was current). */
  appliedMigrations: readonly string[] = [];

  constructor(private readonly options: DatabaseOptions) {}

  /**
   * `model`: the embedder's provider and model id. Given, the store's record of its model
   * (migration 18) is written on a first open, and a different model id or dimension is
   * refused (a ConfigurationError saying how to move). Absent (tests, a store joining an open
   * under way), only the column's dimension is checked.
   */
  open(dimension: number, model?: Omit<StoreModel, 'dimension'>): Promise<void> {
    this.dimension = dimension;
    this.model = model ?? this.model;
    this.opening ??= this.connect(dimension).catch((error: unknown) => {
      this.opening = undefined; // let a retry (DatabaseOpener, StoreBootstrap) start over
      throw error;
    });
    return this.opening;
  }

  /**
   * The store moved to `model` (a `reembed` switched it): the HNSW operator class and a
   * reopened engine's checks follow it.
   */
  followModel(model: StoreModel): void {
    this.dimension = model.dimension;
    this.model = { provider: model.provider, model: model.model };
  }

  /** Resolves once someone has opened the database (consumers that do not know the dimension). */
  whenOpen(): Promise<void> {
    return this.opened;
  }

  get isOpen(): boolean {
    return this.client !== undefined;
  }

  /**
   * This process's replica id on a Postgres server, held as an advisory lock while it lives
   * (see {@link ReplicaPresence}); `null` on single-process PGlite.
   */
  get replicaId(): number | null {
    return this.presence?.id ?? null;
  }

  /**
   * The HNSW operator class of the vector columns: `halfvec_cosine_ops` for a store over
   * 2,000 dimensions (see {@link cosineOpclass}), else `vector_cosine_ops`.
   */
  get cosineOpclass(): string {
    return cosineOpclass(this.dimension ?? 0);
  }

  /** Which engine serves: `pglite` (embedded) or `postgres` (DATABASE_URL). */
  get engine(): SqlClient['engine'] {
    return this.options.databaseUrl ? 'postgres' : 'pglite';
  }

  // Async, so a database that is not open rejects like any other failure, never throws.

  /** One statement; `options.signal` stops it early (see {@link QueryOptions}). */
  async query<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<T[]> {
    return this.requireClient().query<T>(sql, params, options);
  }

  /** A hot read as a named statement, planned once per session (see {@link SqlClient}). */
  async queryPrepared<T = Record<string, unknown>>(
    sql: string,
    params?: unknown[],
    options?: QueryOptions,
  ): Promise<T[]> {
    return this.requireClient().queryPrepared<T>(sql, params, options);
  }

  async execute(sql: string, params?: unknown[]): Promise<number> {
    return this.requireClient().execute(sql, params);
  }

  async exec(script: string): Promise<void> {
    return this.requireClient().exec(script);
  }

  /** Runs `work` in one transaction; it commits when `work` resolves, else rolls back. */
  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.requireClient().transaction(work);
  }

  /** See {@link SqlClient.session}. */
  session<T>(work: (session: SqlExecutor) => Promise<T>): Promise<T> {
    return this.requireClient().session(work);
  }

  /**
   * Runs `work` holding the cross-replica locks of `keys` in `scope` (Postgres advisory
   * locks on the lock lane; a pass-through on single-process PGlite). `signal` aborts if the
   * locks are lost. See {@link withAdvisoryLocks}.
   */
  async withLocks<T>(
    scope: LockScope,
    keys: readonly string[],
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    this.requireClient();
    return withAdvisoryLocks(this.lane, scope, keys, work);
  }

  /**
   * Runs the periodic job `name` unless another replica is running it now; `signal` aborts
   * if leadership is lost mid-run. See {@link whileLeading}.
   */
  async whileLeading<T>(
    name: string,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<Leadership<T>> {
    this.requireClient();
    return whileLeading(this.lane, name, work);
  }

  /** Readiness: one round trip, bounded so a hung server cannot hang the probe. */
  async check(timeoutMs = 2000): Promise<DatabaseHealth> {
    if (!this.client) {
      return { up: false, reason: 'the database is not open yet' };
    }
    const client = this.client;
    const outcome = await withDeadline(timeoutMs, () => client.query('SELECT 1'));
    if (outcome.status === 'ok') {
      return { up: true };
    }
    if (outcome.status === 'timeout') {
      return { up: false, reason: `the database did not answer within ${timeoutMs} ms` };
    }
    const error = classifyDatabaseError(outcome.error) as Error;
    return { up: false, reason: error.message };
  }

  /**
   * Liveness: down only when restarting the process may help, i.e. the embedded engine
   * could not be reopened several times in a row, or has answered nothing for
   * {@link STALL_TIMEOUTS} statement timeouts. A server that is down is readiness' business.
   */
  liveness(): DatabaseHealth {
    const restart = this.restart.health();
    if (!restart.up) {
      return restart;
    }
    const stalledMs = this.client?.stalledMs?.() ?? 0;
    if (stalledMs > STALL_TIMEOUTS * this.statementTimeoutMs) {
      return {
        up: false,
        reason: `the embedded database has answered nothing for ${Math.round(stalledMs / 1000)} s`,
      };
    }
    return { up: true };
  }

  async close(): Promise<void> {
    this.restart.stop();
    // An open under way (a start-up retry, a replacement) finishes first: else it would
    // leave a connection behind this close.
    await this.opening?.catch(() => undefined);
    const client = this.client;
    const presence = this.presence;
    const lane = this.lane;
    this.client = undefined;
    this.presence = undefined;
    this.lane = undefined;
    this.opening = undefined;
    if (this.dataSource.isInitialized) {
      await this.dataSource.destroy();
    }
    await presence?.stop();
    await lane?.close();
    await client?.close();
  }

  private get rowSecurity(): boolean {
    return this.options.rowSecurity ?? true;
  }

  private get statementTimeoutMs(): number {
    return this.options.statementTimeoutMs ?? DEFAULT_DATABASE_OPTIONS.statementTimeoutMs;
  }

  /** The embedded worker died by itself: fail fast meanwhile, and open a new one. */
  private replace(lost: SqlClient): void {
    if (this.client !== lost) {
      return; // it died while opening (that open fails and is retried) or was replaced
    }
    this.client = undefined;
    this.opening = undefined;
    this.logger.error('the embedded database worker died; reopening the data dir in a new one');
    // The old client releases the data-dir lock before the new one takes it.
    void lost
      .close()
      .catch(() => undefined)
      .then(() => this.restart.start());
  }

  /**
   * Not open yet (the server was unreachable at boot and the open is being retried) is an
   * outage like any other: a 503 `database_unavailable` the caller may retry, not a 500.
   */
  private requireClient(): SqlClient {
    if (!this.client) {
      throw new DatabaseUnavailableError('it is not open yet');
    }
    return this.client;
  }

  private async connect(dimension: number): Promise<void> {
    assertIndexableDimension(dimension);
    const client = await this.openClient();
    try {
      await this.assertDimension(client, dimension);
      const ran = await migrate(client, schemaMigrations(dimension));
      if (this.rowSecurity) {
        await enforceRowSecurity(client, this.logger);
      }
      ran.forEach((name) => this.logger.log(`migration applied: ${name}`));
      if (this.model) {
        await reconcileStoreModel(client, { ...this.model, dimension }, this.logger);
      }
      this.appliedMigrations = ran;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    if (this.options.databaseUrl) {
      this.presence = new ReplicaPresence(this.options.databaseUrl, REPLICA_LOCK_SCOPE);
      await this.presence.start();
      this.lane = new LockLane({
        url: this.options.databaseUrl,
        size: this.options.lockConnections ?? DEFAULT_DATABASE_OPTIONS.lockConnections,
        connectTimeoutMs:
          this.options.connectTimeoutMs ?? DEFAULT_DATABASE_OPTIONS.connectTimeoutMs,
        lockWaitMs: LOCK_WAIT_MS,
      });
    }
    this.client = client;
    try {
      await initializeAppDataSource(this.dataSource, dimension);
    } catch (error) {
      this.client = undefined;
      await this.presence?.stop();
      this.presence = undefined;
      await this.lane?.close();
      this.lane = undefined;
      await client.close().catch(() => undefined);
      throw error;
    }
    this.logger.log(
      client.engine === 'pglite'
        ? `embedded PGlite + pgvector at ${this.options.dataDir}`
        : 'connected to Postgres (DATABASE_URL)',
    );
    this.signalOpen();
  }

  private async openClient(): Promise<SqlClient> {
    if (!this.options.databaseUrl) {
      return PgliteClient.open({
        dataDir: this.options.dataDir,
        sessionSettings: [
          `SET hnsw.ef_search = ${HNSW_EF_SEARCH}; SET hnsw.iterative_scan = ${HNSW_ITERATIVE_SCAN}`,
          ...Object.entries(unscopedSession(this.rowSecurity)).map(([k, v]) => `SET ${k} = '${v}'`),
        ].join('; '),
        scope: statementScope(this.rowSecurity),
        statementTimeoutMs: this.statementTimeoutMs,
        sharedBuffersMb:
          this.options.pgliteSharedBuffersMb ?? DEFAULT_DATABASE_OPTIONS.pgliteSharedBuffersMb,
        onExit: (lost) => this.replace(lost),
      });
    }
    const client = new PgClient({
      url: this.options.databaseUrl,
      poolMax: this.options.poolMax ?? DEFAULT_DATABASE_OPTIONS.poolMax,
      statementTimeoutMs: this.statementTimeoutMs,
      connectTimeoutMs: this.options.connectTimeoutMs ?? DEFAULT_DATABASE_OPTIONS.connectTimeoutMs,
      // HNSW returns at most ef_search rows (default 40); top_k and pool_k go up to 100.
      // JIT compiles a plan whose cost estimate is large (a scan at 1M rows) for hundreds of
      // milliseconds: never worth it for these short statements.
      scope: statementScope(this.rowSecurity),
      sessionSettings: {
        ...unscopedSession(this.rowSecurity),
        jit: 'off',
        'hnsw.ef_search': HNSW_EF_SEARCH,
        'hnsw.iterative_scan': HNSW_ITERATIVE_SCAN,
      },
    });
    try {
      await client.connect();
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return client;
  }

  /** Fails fast, with the fix, when the tables were built for another embedding model. */
  private async assertDimension(client: SqlClient, expected: number): Promise<void> {
    const [recorded] = await client.query<{ present: boolean }>(
      `SELECT to_regclass('embedding_model') IS NOT NULL AS present`,
    );
    const stored = recorded?.present ? await readStoreModel(client) : null;
    if (stored && this.model) {
      assertSameModel(stored, { ...this.model, dimension: expected }, this.logger);
    }
    const rows = await client.query<{ type: string }>(
      `SELECT format_type(a.atttypid, a.atttypmod) AS type FROM pg_attribute a
       WHERE a.attrelid = to_regclass('podium_conversations') AND a.attname = 'embedding'`,
    );
    const actual = vectorColumnDimension(rows[0]?.type ?? '');
    if (rows.length > 0 && actual !== expected) {
      throw new ConfigurationError(
        `Vector dimension mismatch: the store holds ${actual}-d vectors but the embedder ` +
          `produces ${expected}-d. Use the embedding model the data was ingested with, or ` +
          MODEL_CHANGE_HINT,
      );
    }
  }
}
