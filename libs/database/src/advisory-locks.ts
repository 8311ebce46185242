import { type SqlClient } from './interfaces/sql-client.interface';

/**
 * What an advisory lock guards. Each scope is the first half of Postgres's two-int advisory
 * key (the second is `hashtext(key)`), so scopes never collide with each other nor with the
 * migrator's one-bigint lock (a different key space in `pg_locks`).
 */
export type LockScope = 'conversation' | 'contact' | 'job';

const SCOPE_IDS: Record<LockScope, number> = {
  conversation: 0x63620001,
  contact: 0x63620002,
  job: 0x63620003,
};

/** The scope of each replica's presence lock (see {@link ReplicaPresence}). */
export const REPLICA_LOCK_SCOPE = 0x63620004;

/**
 * SQL true when the replica whose id is in `column` is gone (its presence lock is free), for
 * taking over what it leased. A try-lock, not a read of `pg_locks` (which would lock every
 * partition of the server's lock table); what it takes is released with the statement's
 * transaction. False for a NULL id (leased on PGlite, or before replica ids existed).
 */
export const replicaGone = (column: string): string =>
  `(${column} IS NOT NULL AND pg_try_advisory_xact_lock(${REPLICA_LOCK_SCOPE}, ${column}))`;

/**
 * Waiting for another replica's lock is not a slow statement: a rebuild holds its lock while
 * it embeds a group of conversations, which can outlast `statement_timeout`. Bounded anyway,
 * so a lost wake-up cannot hang a request forever.
 */
const LOCK_WAIT_MS = 300_000;

/**
 * Runs `work` while this process holds the advisory locks of `keys` in `scope`, so no other
 * replica runs work under any of them at the same time. The locks are transaction-scoped, on
 * one pooled connection that stays open (idle in a transaction) for the length of `work`:
 * they are released by the commit, by the rollback if `work` throws, and by the server if the
 * process dies, so a crash never leaves one behind. `work` runs its statements on other
 * pooled connections; it must not take more locks of the same scope (locks are taken in one
 * sorted statement so that two replicas never deadlock, which holds only for one batch).
 *
 * On embedded PGlite (one process, one session) this runs `work` directly: the in-process
 * locks callers hold already serialise it, and a transaction there would block `work`.
 */
export async function withAdvisoryLocks<T>(
  client: SqlClient,
  scope: LockScope,
  keys: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  if (client.engine === 'pglite' || keys.length === 0) {
    return work();
  }
  return client.transaction(async (tx) => {
    await tx.execute(`SET LOCAL statement_timeout = ${LOCK_WAIT_MS}`);
    // Sorted by the lock key itself: every replica takes any two locks in the same order.
    await tx.query(
      `SELECT count(pg_advisory_xact_lock($1::int, h)) FROM (
         SELECT DISTINCT hashtext(k) AS h FROM unnest($2::text[]) AS k ORDER BY h) AS keys`,
      [SCOPE_IDS[scope], [...new Set(keys)]],
    );
    return work();
  });
}

/** What {@link whileLeading} did: ran `work` (and what it returned), or found it running elsewhere. */
export type Leadership<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` only if no other replica is running the job `name` right now (a try-lock, never
 * a wait): periodic jobs that every replica schedules then run on one at a time. The lock is
 * held as {@link withAdvisoryLocks} holds its own, and released the same ways.
 */
export async function whileLeading<T>(
  client: SqlClient,
  name: string,
  work: () => Promise<T>,
): Promise<Leadership<T>> {
  if (client.engine === 'pglite') {
    return { ran: true, value: await work() };
  }
  return client.transaction(async (tx) => {
    const [row] = await tx.query<{ leader: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1::int, hashtext($2)) AS leader',
      [SCOPE_IDS.job, name],
    );
    if (!row?.leader) {
      return { ran: false } as const;
    }
    return { ran: true, value: await work() } as const;
  });
}
