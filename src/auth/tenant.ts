import { type LiveContact } from '@app/podium';

import { TenantForbiddenError } from './auth.errors';
import { type LocationScope } from './principal';

/** At most this many offending record indexes are listed in a 403. */
const MAX_LISTED = 20;

/**
 * The `location_uids` a read is filtered to, inside the store's query: the requested
 * location (which must be in scope) or the caller's whole scope. `undefined`: unfiltered.
 */
export function scopedLocations(scope: LocationScope, requested?: string): string[] | undefined {
  if (requested !== undefined) {
    if (scope && !scope.includes(requested)) {
      throw new TenantForbiddenError('This API key is not bound to the requested location_uid.');
    }
    return [requested];
  }
  return scope ? [...scope] : undefined;
}

/**
 * The contact as a caller with `scope` may see it: unchanged for an unbound key; for a bound
 * key, only when one of the contact's locations (a Podium contact can be in several) is in
 * the binding, and then labelled with that location rather than one the key may not know
 * of. `undefined` means "as if unknown": a bound key gets exactly the answer it gets for a
 * contact no CRM knows, so it cannot learn that the contact exists elsewhere.
 */
export function contactInScope(
  scope: LocationScope,
  contact: LiveContact,
): LiveContact | undefined {
  if (!scope) {
    return contact;
  }
  const visible = contact.location_uids.filter((location) => scope.includes(location));
  if (visible.length === 0) {
    return undefined;
  }
  return { ...contact, location_uid: visible[0], location_uids: visible };
}

/**
 * A bound key ingests only records of its own locations; a record without a location would
 * be readable by every unbound key, so it is refused too. Records that are not objects are
 * left to validation, which reports them by index.
 */
export function assertRecordsInScope(scope: LocationScope, records: readonly unknown[]): void {
  if (!scope) {
    return;
  }
  const outside: number[] = [];
  records.forEach((record, index) => {
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      return;
    }
    const location = (record as { location_uid?: unknown }).location_uid;
    if (typeof location !== 'string' || !scope.includes(location)) {
      outside.push(index);
    }
  });
  if (outside.length > 0) {
    throw new TenantForbiddenError(
      `${outside.length} record(s) have a location_uid this API key is not bound to (or none); nothing was ingested.`,
      { indexes: outside.slice(0, MAX_LISTED) },
    );
  }
}

/** Shared data (the R42 knowledge base) is written only by unbound keys. */
export function assertUnbound(scope: LocationScope, what: string): void {
  if (scope) {
    throw new TenantForbiddenError(`A location-bound API key cannot write ${what}.`);
  }
}
