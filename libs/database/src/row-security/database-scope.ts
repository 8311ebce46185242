import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The transaction setting the row-level security policies read (migration 14): `*` for every
 * location, else a text-array literal of the locations a statement may touch. Unset or empty
 * (a connection that did not come through this service's clients), the policies match no row.
 */
export const LOCATIONS_SETTING = 'app.locations';

/** The setting's value for work that may touch every location (admin keys, background jobs). */
export const EVERY_LOCATION = '*';

/** The statement that scopes the rest of its transaction (`is_local`: gone at its end). */
export const SCOPE_STATEMENT = `SELECT set_config('${LOCATIONS_SETTING}', $1, true)`;

/**
 * The statement that scopes a session until it is set again: for a session that only its
 * owner ever sends statements on (PGlite's), which therefore knows what it holds. A failed
 * transaction undoes it, as it undoes any setting.
 */
export const SESSION_SCOPE_STATEMENT = `SELECT set_config('${LOCATIONS_SETTING}', $1, false)`;

/**
 * Which rows the database lets the current work see: `every` (an unbound principal, the open
 * mode without keys, background jobs), or only rows of `locations` (a location-bound key).
 */
export type DatabaseScope = { kind: 'every' } | { kind: 'locations'; locations: readonly string[] };

const scopes = new AsyncLocalStorage<DatabaseScope>();

/**
 * Runs `work` (and everything it starts) with `scope`: each statement and transaction the
 * database clients run for it sets {@link LOCATIONS_SETTING} for its own transaction only.
 */
export function withDatabaseScope<T>(scope: DatabaseScope, work: () => T): T {
  return scopes.run(scope, work);
}

/**
 * The setting for the work running now. Outside any request's scope (start-up, migrations,
 * workers, timers started outside a request) it is {@link EVERY_LOCATION}: background work
 * is the service's own and is bound to no caller.
 */
export function currentScopeSetting(): string {
  return scopeSetting(scopes.getStore() ?? { kind: 'every' });
}

/** `*`, or the locations as a Postgres text-array literal (every element quoted). */
export function scopeSetting(scope: DatabaseScope): string {
  if (scope.kind === 'every') {
    return EVERY_LOCATION;
  }
  const quoted = scope.locations.map((l) => `"${l.replace(/["\\]/g, (c) => `\\${c}`)}"`);
  return `{${quoted.join(',')}}`;
}
