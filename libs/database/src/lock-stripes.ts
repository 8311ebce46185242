/**
 * Advisory-lock keys hashed into a bounded set, so any key set costs a bounded number of
 * entries in Postgres's shared lock table (`max_locks_per_transaction` × `max_connections`,
 * about 6,400 by default, shared by every session of the server): a 5,000-contact ingest
 * must not take 5,000.
 *
 * Two levels. Each key hashes to one of {@link STRIPES} stripes; every {@link STRIPES_PER_GROUP}
 * stripes form a group. A small set locks its groups SHARED and its stripes EXCLUSIVE; a set
 * that spans more than {@link MAX_FINE_STRIPES} stripes locks its groups EXCLUSIVE instead,
 * which conflicts with every stripe of those groups (through the shared group lock each stripe
 * holder also holds). Either way one acquisition takes at most 64 locks, and unrelated keys
 * collide only when they share a stripe (1 in 1,024). Every caller takes groups before
 * stripes, each in ascending order, so two callers never deadlock.
 */

export const STRIPES = 1024;
export const STRIPES_PER_GROUP = 16;
export const GROUPS = STRIPES / STRIPES_PER_GROUP;
/** Past this many distinct stripes a set locks whole groups (≤ {@link GROUPS} locks). */
export const MAX_FINE_STRIPES = 32;
/** Group locks live beside the stripes in the scope's key space, above them. */
const GROUP_KEY_BASE = STRIPES;

/** The advisory locks one acquisition takes, each list ascending (the order they are taken in). */
export interface StripePlan {
  /** Second halves of the keys locked SHARED (groups of a fine plan). */
  shared: number[];
  /** Second halves of the keys locked EXCLUSIVE (stripes, or the groups of a coarse plan). */
  exclusive: number[];
}

/** FNV-1a over the UTF-16 code units: stable across processes and versions, cheap. */
export function stripeOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % STRIPES;
}

const ascending = (values: Iterable<number>) => [...new Set(values)].sort((a, b) => a - b);

/** The locks that guard `keys`: at most {@link MAX_FINE_STRIPES} × 2, or {@link GROUPS}. */
export function stripePlan(keys: readonly string[]): StripePlan {
  const stripes = ascending(keys.map(stripeOf));
  const groups = ascending(stripes.map((s) => GROUP_KEY_BASE + Math.floor(s / STRIPES_PER_GROUP)));
  return stripes.length > MAX_FINE_STRIPES
    ? { shared: [], exclusive: groups }
    : { shared: groups, exclusive: stripes };
}
