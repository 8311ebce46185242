import { AsyncLocalStorage } from 'node:async_hooks';

import { Logger } from '@nestjs/common';
import { Client } from 'pg';

import { classifyDatabaseError, DatabaseTimeoutError, DatabaseUnavailableError } from '../errors';

/** How {@link LockLane} reaches the server, and how much of it it may use. */
export interface LockLaneOptions {
  url: string;
  /** Dedicated connections; also the most lock holders this process has at once. */
  size: number;
  connectTimeoutMs: number;
  /** Longest wait for a free connection, and for a lock another replica holds. */
  lockWaitMs: number;
}

/** Runs one lock statement on the lane's session (its rows). */
export type LockStatement = <R = Record<string, unknown>>(
  sql: string,
  params?: unknown[],
) => Promise<R[]>;

/** What {@link LockLane.hold} did: ran `work` under the locks, or found them taken. */
export type Held<T> = { held: true; value: T } | { held: false };

/**
 * The session that held the locks ended while `work` ran (a restart, a network cut, a
 * server-side timeout): the server released them, so `work` may have overlapped another
 * replica's. A retryable 503; the work is idempotent by design and the retry takes them again.
 */
export class LockLostError extends DatabaseUnavailableError {
  constructor() {
    super('the session holding its advisory locks ended');
  }
}

interface LaneSession {
  client: Client;
  /** Set once the connection has failed or ended: it is never reused. */
  lost: boolean;
  /** Aborts the work running under this session's locks, if any. */
  onLost?: () => void;
}

/**
 * Advisory locks on connections of their own, never the request pool's. A transaction-scoped
 * lock keeps its session idle in a transaction while the guarded work runs on the pool; on
 * the pool itself ten holders took every connection and their own work then waited for one,
 * so every route answered 503. Here at most `size` sessions hold locks; further callers wait
 * in process for a free one (bounded, then `database_timeout`), so locked work is also capped
 * per process.
 *
 * The sessions opt out of `idle_in_transaction_session_timeout` (a managed server's default
 * would end them mid-work and silently release the locks). A session lost anyway aborts the
 * work's signal and fails the call with {@link LockLostError} once the work has returned.
 */
export class LockLane {
  private readonly logger = new Logger(LockLane.name);
  private readonly idle: LaneSession[] = [];
  private readonly waiting: Array<() => void> = [];
  private inUse = 0;
  private closed = false;
  /** Set inside a hold's work: a lock taken there (a leader job's rebuild) is nested. */
  private readonly holding = new AsyncLocalStorage<true>();

  constructor(private readonly options: LockLaneOptions) {}

  /**
   * Takes a session, opens a transaction, runs `acquire` (lock statements; false: not taken,
   * `work` does not run), then `work`, and commits, which releases the locks. A failure
   * rolls back; a lost session throws {@link LockLostError}.
   */
  async hold<T>(
    acquire: (statement: LockStatement) => Promise<boolean>,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<Held<T>> {
    // A nested hold opens a session beyond `size`: waiting for a place that only holders
    // waiting like it could free would deadlock the lane. Nesting is shallow (one level).
    const nested = this.holding.getStore() === true;
    if (!nested) {
      await this.enter();
    }
    let session: LaneSession | undefined;
    try {
      session = await this.checkout();
      return await this.inTransaction(session, acquire, (signal) =>
        this.holding.run(true, () => work(signal)),
      );
    } finally {
      if (session) {
        this.checkin(session);
      }
      if (!nested) {
        this.leave();
      }
    }
  }

  /** Connections holding locks now, and callers waiting for one (tests, metrics). */
  get load(): { inUse: number; waiting: number } {
    return { inUse: this.inUse, waiting: this.waiting.length };
  }

  async close(): Promise<void> {
    this.closed = true;
    const idle = this.idle.splice(0);
    await Promise.all(idle.map((s) => s.client.end().catch(() => undefined)));
  }

  private async inTransaction<T>(
    session: LaneSession,
    acquire: (statement: LockStatement) => Promise<boolean>,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<Held<T>> {
    const statement: LockStatement = async <R>(sql: string, params?: unknown[]) => {
      try {
        return (await session.client.query(sql, params)).rows as R[];
      } catch (error) {
        throw classifyDatabaseError(error);
      }
    };
    const lost = new AbortController();
    session.onLost = () => lost.abort(new LockLostError());
    try {
      await statement('BEGIN');
      if (!(await acquire(statement))) {
        await statement('COMMIT');
        return { held: false };
      }
      const value = await work(lost.signal);
      if (session.lost) {
        throw new LockLostError();
      }
      await statement('COMMIT');
      return { held: true, value };
    } catch (error) {
      if (session.lost) {
        throw new LockLostError();
      }
      await session.client.query('ROLLBACK').catch(() => this.discard(session));
      throw error;
    } finally {
      session.onLost = undefined;
    }
  }

  /** Waits (bounded) for one of the `size` places. */
  private async enter(): Promise<void> {
    if (this.closed) {
      throw new DatabaseUnavailableError('it is closing');
    }
    if (this.inUse < this.options.size) {
      this.inUse++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve(); // the place passes straight on: inUse is unchanged
      };
      const timer = setTimeout(() => {
        this.waiting.splice(this.waiting.indexOf(admit), 1);
        reject(new DatabaseTimeoutError());
      }, this.options.lockWaitMs);
      timer.unref();
      this.waiting.push(admit);
    });
  }

  private leave(): void {
    const next = this.waiting.shift();
    if (next) {
      next();
    } else {
      this.inUse--;
    }
  }

  private async checkout(): Promise<LaneSession> {
    for (let session = this.idle.pop(); session; session = this.idle.pop()) {
      if (!session.lost) {
        return session;
      }
    }
    const client = new Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      application_name: 'context-bridge-locks',
      // Lock waits are bounded by statement_timeout; an idle-in-transaction limit set on the
      // server or the role would end a session that is only waiting for its work to finish.
      options: `-c statement_timeout=${this.options.lockWaitMs} -c idle_in_transaction_session_timeout=0`,
    });
    const session: LaneSession = { client, lost: false };
    const onLost = (error?: Error) => {
      if (!session.lost) {
        session.lost = true;
        // The error class only: a driver message may quote the connection string.
        const reason = (error as { code?: string } | undefined)?.code ?? 'closed';
        this.logger.warn(`advisory-lock session lost (${reason})`);
        session.onLost?.();
      }
    };
    // Without an 'error' listener a session the server ends would crash the process.
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
    } catch (error) {
      session.lost = true;
      await client.end().catch(() => undefined);
      throw classifyDatabaseError(error);
    }
    return session;
  }

  private checkin(session: LaneSession): void {
    if (session.lost || this.closed) {
      this.discard(session);
    } else {
      this.idle.push(session);
    }
  }

  private discard(session: LaneSession): void {
    session.lost = true;
    session.client.end().catch(() => undefined);
  }
}
