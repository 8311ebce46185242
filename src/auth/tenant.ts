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
 * A contact whose live record belongs to another location (or to none) is off limits to a
 * bound key. The message does not say where the contact lives.
 */
export function assertContactInScope(scope: LocationScope, contactLocation: string | null): void {
  if (scope && (contactLocation === null || !scope.includes(contactLocation))) {
    throw new TenantForbiddenError('This API key may not read this contact.');
  }
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
