/** Shared parsing helpers for the env classes: every variable arrives as a string or not at all. */

/** `''` and unset are both "not given"; anything else becomes a number (validated after). */
export const toOptionalNumber = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);

/** `FOO=` in an env file means unset, not "the empty string". */
export const emptyAsUndefined = ({ value }: { value: unknown }) =>
  value === '' ? undefined : value;

/** Options for `@IsUrl` on service URLs: cluster-internal hosts have no TLD. */
export const url = { require_tld: false, protocols: ['http', 'https'] };
