import { type CountryCode, isSupportedCountry } from 'libphonenumber-js/max';

export type { CountryCode };

/** Regions used when none are configured. */
export const DEFAULT_PHONE_REGIONS: readonly CountryCode[] = ['US'];

/**
 * Parses a comma-separated list of ISO 3166-1 alpha-2 region codes (e.g. a
 * `REDACT_PHONE_REGIONS` env var) into the `phoneRegions` option. Case-insensitive, blanks
 * ignored; empty or undefined means {@link DEFAULT_PHONE_REGIONS}.
 *
 * @throws Error naming every code libphonenumber does not support.
 */
export function parsePhoneRegions(csv: string | undefined): CountryCode[] {
  const codes = (csv ?? '')
    .split(',')
    .map((code) => code.trim().toUpperCase())
    .filter((code) => code.length > 0);
  if (codes.length === 0) {
    return [...DEFAULT_PHONE_REGIONS];
  }
  const unsupported = codes.filter((code) => !isSupportedCountry(code));
  if (unsupported.length > 0) {
    throw new Error(
      `Unsupported phone region(s): ${unsupported.join(', ')}. ` +
        'Use comma-separated ISO 3166-1 alpha-2 codes such as US,CA,GB.',
    );
  }
  return [...new Set(codes as CountryCode[])];
}
