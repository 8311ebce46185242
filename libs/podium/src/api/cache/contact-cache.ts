import { type ContactLookup, type LiveContact } from '../../interfaces/podium-contacts.interface';

/**
 * Short-lived copies of live lookups, so the turns of one call (a few seconds apart) do not
 * each cost a Podium request. It holds lookups only: never tokens, never raw Podium bodies.
 */
export interface ContactCache {
  /** The cached lookup, or `undefined` on a miss or any cache failure. Never throws. */
  get(key: string): Promise<ContactLookup | undefined>;
  /**
   * Caches `lookup` under `key` for `ttlMs`, and indexes it under `aliases` (the contact's
   * other identifiers) so that {@link invalidate} with any of them drops it.
   */
  set(key: string, lookup: ContactLookup, ttlMs: number, aliases: string[]): Promise<void>;
  /** Drops what is cached under `identifier`, as a key or as an alias. */
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
