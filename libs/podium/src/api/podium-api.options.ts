import { ConfigurationError } from '@app/common';

/** What the `api` provider needs; the module options carry these from the app config. */
export interface PodiumApiOptions {
  /** Podium v4 base, e.g. `https://api.podium.com/v4`; `/contacts/{identifier}` is appended. */
  baseUrl?: string;
  /** OAuth2 token endpoint for the refresh-token grant. */
  tokenUrl?: string;
  clientId: string;
  clientSecret: string;
  /** The long-lived refresh token from the authorization-code grant (kept in memory only). */
  refreshToken: string;
  /** Sent as the `podium-version` header when set. */
  apiVersion?: string;
  /** Found contacts are cached this long; 0 turns the cache off. */
  cacheTtlMs?: number;
  /** Consecutive failures (5xx, network, timeouts) that open the circuit breaker. */
  breakerFailures?: number;
  /** How long an open breaker waits before one half-open probe. */
  breakerCooldownMs?: number;
  /** Ceiling per HTTP request when the caller gives no deadline of its own. */
  requestTimeoutMs?: number;
  /** Refresh this long before the access token expires (at most half its life). */
  refreshSkewMs?: number;
  /** Longest 429 back-off waited out inside a call; longer ones fail fast. */
  maxRetryWaitMs?: number;
  /** Back-off after a 429 without `Retry-After`. */
  rateLimitBackoffMs?: number;
  /** Not-found answers are cached at most this long (new contacts appear). */
  notFoundTtlMs?: number;
  /** Most contacts held by the in-memory cache. */
  cacheMaxEntries?: number;
  /**
   * Podium requests (cache misses) one caller (a location-bound key) may cause per minute;
   * past it its lookups are skipped, not sent. Callers with no scope are not counted.
   */
  lookupsPerCallerPerMinute?: number;
}

export type ResolvedPodiumApiOptions = Required<Omit<PodiumApiOptions, 'apiVersion'>> &
  Pick<PodiumApiOptions, 'apiVersion'>;

/** Every default of {@link PodiumApiOptions}, applied by {@link resolvePodiumApiOptions}. */
export const DEFAULT_PODIUM_API_OPTIONS = {
  baseUrl: 'https://api.podium.com/v4',
  tokenUrl: 'https://accounts.podium.com/oauth/token',
  cacheTtlMs: 30_000,
  breakerFailures: 5,
  breakerCooldownMs: 10_000,
  requestTimeoutMs: 5_000,
  refreshSkewMs: 60_000,
  maxRetryWaitMs: 250,
  rateLimitBackoffMs: 100,
  notFoundTtlMs: 5_000,
  cacheMaxEntries: 10_000,
  lookupsPerCallerPerMinute: 120,
} satisfies Partial<PodiumApiOptions>;

/** Fills the defaults and refuses to start without credentials, naming what is missing. */
export function resolvePodiumApiOptions(
  options: Partial<PodiumApiOptions>,
): ResolvedPodiumApiOptions {
  const d = DEFAULT_PODIUM_API_OPTIONS;
  const required = {
    baseUrl: options.baseUrl ?? d.baseUrl,
    tokenUrl: options.tokenUrl ?? d.tokenUrl,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    refreshToken: options.refreshToken,
  };
  const { baseUrl, tokenUrl, clientId, clientSecret, refreshToken } = required;
  if (!baseUrl || !tokenUrl || !clientId || !clientSecret || !refreshToken) {
    const missing = Object.keys(required).filter((key) => !required[key as keyof typeof required]);
    throw new ConfigurationError(
      `PODIUM_PROVIDER=api needs ${missing.join(', ')} (PODIUM_BASE_URL, PODIUM_TOKEN_URL, ` +
        'PODIUM_CLIENT_ID, PODIUM_CLIENT_SECRET, PODIUM_REFRESH_TOKEN).',
    );
  }
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    tokenUrl,
    clientId,
    clientSecret,
    refreshToken,
    apiVersion: options.apiVersion || undefined,
    cacheTtlMs: Math.max(0, options.cacheTtlMs ?? d.cacheTtlMs),
    breakerFailures: Math.max(1, options.breakerFailures ?? d.breakerFailures),
    breakerCooldownMs: Math.max(1, options.breakerCooldownMs ?? d.breakerCooldownMs),
    requestTimeoutMs: options.requestTimeoutMs ?? d.requestTimeoutMs,
    refreshSkewMs: options.refreshSkewMs ?? d.refreshSkewMs,
    maxRetryWaitMs: options.maxRetryWaitMs ?? d.maxRetryWaitMs,
    rateLimitBackoffMs: options.rateLimitBackoffMs ?? d.rateLimitBackoffMs,
    notFoundTtlMs: options.notFoundTtlMs ?? d.notFoundTtlMs,
    cacheMaxEntries: options.cacheMaxEntries ?? d.cacheMaxEntries,
    lookupsPerCallerPerMinute: Math.max(
      1,
      options.lookupsPerCallerPerMinute ?? d.lookupsPerCallerPerMinute,
    ),
  };
}

/**
 * How long the contact cache remembers an invalidation for its write-back guard: longer than
 * any lookup can take (a few request ceilings and a 429 wait), so none outlives its record.
 */
export function invalidationGuardMs(options: ResolvedPodiumApiOptions): number {
  return 4 * options.requestTimeoutMs + options.maxRetryWaitMs;
}
