import { ConfigurationError } from '@app/common';

/** What the `api` provider needs; the module options carry these from the app config. */
export interface PodiumApiOptions {
  /** Podium v4 base, e.g. `https://api.podium.com/v4`; `/contacts/{identifier}` is appended. */
  baseUrl: string;
  /** OAuth2 token endpoint for the refresh-token grant. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The long-lived refresh token from the authorization-code grant (kept in memory only). */
  refreshToken: string;
  /** Sent as the `podium-version` header when set. */
  apiVersion?: string;
  /** Found contacts are cached this long; 0 turns the cache off. */
  cacheTtlMs: number;
  /** Consecutive failures (5xx, network, timeouts) that open the circuit breaker. */
  breakerFailures: number;
  /** How long an open breaker waits before one half-open probe. */
  breakerCooldownMs: number;
  /** Ceiling per HTTP request when the caller gives no deadline of its own. Default 5000. */
  requestTimeoutMs?: number;
  /** Refresh this long before the access token expires (at most half its life). Default 60000. */
  refreshSkewMs?: number;
  /** Longest 429 back-off waited out inside a call; longer ones fail fast. Default 250. */
  maxRetryWaitMs?: number;
  /** Back-off after a 429 without `Retry-After`. Default 100. */
  rateLimitBackoffMs?: number;
  /** Not-found answers are cached at most this long (new contacts appear). Default 5000. */
  notFoundTtlMs?: number;
  /** Most contacts held by the in-memory cache. Default 10000. */
  cacheMaxEntries?: number;
}

export type ResolvedPodiumApiOptions = Required<Omit<PodiumApiOptions, 'apiVersion'>> &
  Pick<PodiumApiOptions, 'apiVersion'>;

/** Fills the defaults and refuses to start without credentials, naming what is missing. */
export function resolvePodiumApiOptions(
  options: Partial<PodiumApiOptions> & Pick<PodiumApiOptions, 'cacheTtlMs'>,
): ResolvedPodiumApiOptions {
  const missing = (
    ['baseUrl', 'tokenUrl', 'clientId', 'clientSecret', 'refreshToken'] as const
  ).filter((key) => !options[key]);
  if (missing.length > 0) {
    throw new ConfigurationError(
      `PODIUM_PROVIDER=api needs ${missing.join(', ')} (PODIUM_BASE_URL, PODIUM_TOKEN_URL, ` +
        'PODIUM_CLIENT_ID, PODIUM_CLIENT_SECRET, PODIUM_REFRESH_TOKEN).',
    );
  }
  return {
    baseUrl: (options.baseUrl as string).replace(/\/+$/, ''),
    tokenUrl: options.tokenUrl as string,
    clientId: options.clientId as string,
    clientSecret: options.clientSecret as string,
    refreshToken: options.refreshToken as string,
    apiVersion: options.apiVersion || undefined,
    cacheTtlMs: Math.max(0, options.cacheTtlMs),
    breakerFailures: Math.max(1, options.breakerFailures ?? 5),
    breakerCooldownMs: Math.max(1, options.breakerCooldownMs ?? 10_000),
    requestTimeoutMs: options.requestTimeoutMs ?? 5_000,
    refreshSkewMs: options.refreshSkewMs ?? 60_000,
    maxRetryWaitMs: options.maxRetryWaitMs ?? 250,
    rateLimitBackoffMs: options.rateLimitBackoffMs ?? 100,
    notFoundTtlMs: options.notFoundTtlMs ?? 5_000,
    cacheMaxEntries: options.cacheMaxEntries ?? 10_000,
  };
}
