import { type ContactLookup, type LiveContact } from '../../interfaces/podium-contacts.interface';

/** How long an invalidation is remembered when the caller does not say (a few lookups' ceilings). */
export const DEFAULT_INVALIDATION_GUARD_MS = 30_000;

/** A cache read: the lookup (absent on a miss), and the cache's clock at the read. */
export interface CacheRead {
  lookup?: ContactLookup;
  /**
   * The cache's invalidation count when it answered (absent when the cache failed): a value
   * fetched after this read is written back with it, and refused if any of its identifiers
   * was invalidated since. Shared caches count for every replica.
   */
  stamp?: number;
}

/**
 * Short-lived copies of live lookups, so the turns of one call (a few seconds apart) do not
 * each cost a Podium request. It holds lookups only: never tokens, never raw Podium bodies.
 */
export interface ContactCache {
  /** The cached lookup, or `undefined` on a miss or any cache failure. Never throws. */
  get(key: string): Promise<ContactLookup | undefined>;
  /** {@link get} plus the stamp a later {@link set} of a fetched value needs. Never throws. */
  read(key: string): Promise<CacheRead>;
  /**
   * Caches `lookup` under `key` for `ttlMs`, and indexes it under `aliases` (the contact's
   * other identifiers) so that {@link invalidate} with any of them drops it. With `stamp`
   * (from the {@link read} that missed before the fetch), nothing is written if `key` or an
   * alias was invalidated after that read, on this replica or another: a lookup in flight
   * while a contact is deleted must not put it back. Resolves whether it was written.
   */
  set(
    key: string,
    lookup: ContactLookup,
    ttlMs: number,
    aliases: string[],
    stamp?: number,
  ): Promise<boolean>;
  /** Drops what is cached under `identifier`, as a key or as an alias, and records when. */
  invalidate(identifier: string): Promise<void>;
  close(): Promise<void>;
}

/** A cached value read back from a store that may hold anything: only well-formed lookups pass. */
export function asLookup(value: unknown): ContactLookup | undefined {
  if (typeof value !== 'object' || value === null) {
    return undefined;
  }
  const candidate = value as { status?: unknown; contact?: unknown };
  if (candidate.status === 'not_found') {
    return { status: 'not_found' };
  }
  if (
    candidate.status === 'found' &&
    typeof candidate.contact === 'object' &&
    candidate.contact !== null &&
    typeof (candidate.contact as { contact_uid?: unknown }).contact_uid === 'string'
  ) {
    const contact = candidate.contact as LiveContact;
    // Entries written before `location_uids` existed (a shared Redis during a rollout).
    return Array.isArray(contact.location_uids)
      ? (value as ContactLookup)
      : {
          status: 'found',
          contact: {
            ...contact,
            location_uids: contact.location_uid ? [contact.location_uid] : [],
          },
        };
  }
  return undefined;
}
