import { type Database, type LockScope } from '@app/database';

import { KeyedLock } from './keyed-lock';

/**
 * Mutual exclusion per key across the whole deployment: first among this process's callers
 * (a {@link KeyedLock}, free, and the only lock on single-process PGlite), then across
 * replicas (Postgres advisory locks held for the length of `work`, on the database's lock
 * lane). Taking the in-process lock first means a process waits on the server with at most
 * one caller per key, so the lane's few sessions are not spent queueing behind each other.
 */
export class ReplicaLocks {
  private readonly local = new KeyedLock();

  constructor(private readonly database: Database) {}

  run<T>(scope: LockScope, keys: readonly string[], work: () => Promise<T>): Promise<T> {
    return this.local.run(
      keys.map((k) => `${scope}:${k}`),
      () => this.database.withLocks(scope, keys, work),
    );
  }
}
