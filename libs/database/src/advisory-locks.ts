import { stripePlan } from './lock-stripes';
import { type LockLane } from './pg/lock-lane';

/**
 * What an advisory lock guards. Each scope is the first half of Postgres's two-int advisory
 * key (the second a stripe or group of the key, or `hashtext(name)` for a job), so scopes
 * never collide with each other nor with the migrator's one-bigint lock (a different key
 * space in `pg_locks`).
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
export const LOCK_WAIT_MS = 300_000;

/** Takes `list` (ascending) in one statement: sorted, so two replicas never deadlock. */
const takeAll = (scope: number, mode: '' | '_shared') =>
  `SELECT count(pg_advisory_xact_lock${mode}(${scope}, k)) FROM unnest($1::int[]) AS k`;

/**
 * Runs `work` while this process holds the advisory locks of `keys` in `scope`, so no other
 * replica runs work under any of them at the same time. The keys are hashed into stripes
 * ({@link stripePlan}: at most 64 locks, whatever the number of keys), held on a session of
 * the lock lane (never the request pool: {@link LockLane}), transaction-scoped: released by
 * the commit, by the rollback if `work` throws, and by the server if the process dies, so a
 * crash never leaves one behind. `work` runs its statements on the pool; it must not take
 * more locks of the same scope (groups, then stripes, each ascending, hold only per batch).
 * `signal` aborts if the lane's session is lost (the call then fails with `LockLostError`).
 *
 * On embedded PGlite (one process, one session: no lane) this runs `work` directly: the
 * in-process locks callers hold already serialise it, and a transaction there would block it.
 */
export async function withAdvisoryLocks<T>(
  lane: LockLane | undefined,
  scope: LockScope,
  keys: readonly string[],
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (!lane || keys.length === 0) {
    return work(NEVER_ABORTED);
  }
  const plan = stripePlan(keys);
  const id = SCOPE_IDS[scope];
  const outcome = await lane.hold(async (statement) => {
    if (plan.shared.length > 0) {
      await statement(takeAll(id, '_shared'), [plan.shared]);
    }
    await statement(takeAll(id, ''), [plan.exclusive]);
    return true;
  }, work);
  if (!outcome.held) {
    throw new Error('unreachable: blocking locks are always taken');
  }
  return outcome.value;
}

/** What {@link whileLeading} did: ran `work` (and what it returned), or found it running elsewhere. */
export type Leadership<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` only if no other replica is running the job `name` right now (a try-lock on the
 * job's own key, never a wait nor a stripe): periodic jobs that every replica schedules then
 * run on one at a time. The lock is held on the lock lane as {@link withAdvisoryLocks} holds
 * its own; if the lane's session is lost, `signal` aborts (leadership is gone: another replica
 * may start the job) and the call fails; the next run takes the lock again.
 */
export async function whileLeading<T>(
  lane: LockLane | undefined,
  name: string,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<Leadership<T>> {
  if (!lane) {
    return { ran: true, value: await work(NEVER_ABORTED) };
  }
  const outcome = await lane.hold(async (statement) => {
    const [row] = await statement<{ leader: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1::int, hashtext($2)) AS leader',
      [SCOPE_IDS.job, name],
    );
    return row?.leader === true;
  }, work);
  return outcome.held ? { ran: true, value: outcome.value } : { ran: false };
}

/** The signal of work that no lane can lose (PGlite, no keys). */
const NEVER_ABORTED = new AbortController().signal;
