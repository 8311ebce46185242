import { untilAborted } from '@app/common';
import { Logger } from '@nestjs/common';
import { Pool, type PoolClient, type QueryConfig, type QueryResult } from 'pg';

/** How {@link CancellableStatements} reaches the server for its cancel requests. */
export interface CancelLaneOptions {
  url: string;
  /** Bounds the cancel itself, and how long a cancelled statement may take to end. */
  graceMs: number;
}

/** node-postgres sets the backend's pid on every connection (not in its type definitions). */
const backendPid = (client: PoolClient) =>
  (client as PoolClient & { processID?: number }).processID;

/** Resolves to `'late'` after `ms` (an unref'd timer: it never holds the process open). */
const after = (ms: number) =>
  new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), ms).unref());

/**
 * Statements that stop on the server when their caller gives up. A statement whose signal
 * aborts is rejected at once with the signal's reason; `pg_cancel_backend` then stops it
 * (sent on a separate one-connection pool, so cancelling never waits for the pool that a
 * slow database has filled), and its connection goes back to the pool once the statement
 * has ended, or is destroyed if it does not end within `graceMs`. The connection is held
 * until the cancel has been answered, so the cancel can never hit a later caller's statement.
 */
export class CancellableStatements {
  private readonly logger = new Logger(CancellableStatements.name);
  private lane?: Pool;

  constructor(
    private readonly pool: Pool,
    private readonly options: CancelLaneOptions,
  ) {}

  /** `send` runs the statement on the connection (default: as it is). */
  async run(
    config: QueryConfig,
    signal: AbortSignal,
    send: (client: PoolClient, config: QueryConfig) => Promise<QueryResult> = (c, q) => c.query(q),
  ): Promise<QueryResult> {
    const client = await untilAborted(this.pool.connect(), signal, (late) => {
      void late.then(
        (c) => c.release(),
        () => undefined,
      );
    });
    const statement = send(client, config);
    // What the statement ended with (its error, or nothing), once it has ended.
    let outcome: { error?: Error } | undefined;
    const ended = statement.then(
      () => (outcome = {}),
      (error: Error) => (outcome = { error }),
    );
    try {
      const result = await untilAborted(statement, signal);
      client.release();
      return result;
    } catch (error) {
      if (outcome) {
        // As pg's pool.query does: a connection whose statement failed is not reused.
        client.release(outcome.error);
      } else {
        void this.stop(client, ended);
      }
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.lane?.end();
  }

  /** Cancels the statement on the server, then returns or destroys its connection. */
  private async stop(client: PoolClient, ended: Promise<unknown>): Promise<void> {
    const pid = backendPid(client);
    const cancelled = pid !== undefined && (await this.cancel(pid));
    const outcome = await Promise.race([
      ended.then(() => 'ended' as const),
      after(this.options.graceMs),
    ]);
    // A connection whose statement would not stop is in an unknown state: never reuse it.
    // One that ended cancelled (57014) is idle again and goes back to the pool.
    client.release(
      cancelled && outcome === 'ended' ? undefined : new Error('cancelled statement did not end'),
    );
  }

  private async cancel(pid: number): Promise<boolean> {
    try {
      await this.cancelLane().query('SELECT pg_cancel_backend($1)', [pid]);
      return true;
    } catch (error) {
      const reason = (error as { code?: string }).code ?? (error as Error).name;
      this.logger.warn(`could not cancel a statement (${reason}); its connection is dropped`);
      return false;
    }
  }

  private cancelLane(): Pool {
    if (!this.lane) {
      this.lane = new Pool({
        connectionString: this.options.url,
        max: 1,
        connectionTimeoutMillis: this.options.graceMs,
        idleTimeoutMillis: 30_000,
        application_name: 'context-bridge-cancel',
        options: `-c statement_timeout=${this.options.graceMs}`,
      });
      this.lane.on('error', () => undefined); // an idle cancel connection lost: reopened on use
    }
    return this.lane;
  }
}
