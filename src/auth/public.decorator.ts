import { SetMetadata } from '@nestjs/common';

export const AUTH_POLICY = 'context-bridge:auth-policy';

/** How a route is guarded when it is not simply "API key required" (the default). */
export interface AuthPolicy {
  /** `public`: no key; `metrics`: a key only when METRICS_REQUIRE_KEY=true. */
  access: 'public' | 'metrics';
  /** False exempts the route from rate limits (probes must answer during a flood). */
  rateLimit: boolean;
}

/**
 * Marks a controller or route as reachable without an API key: health probes, the signed
 * webhook, the employee app's chat (guarded by CHAT_AUTH instead) and the API docs.
 */
export const Public = (options: { rateLimit?: boolean } = {}) =>
  SetMetadata<string, AuthPolicy>(AUTH_POLICY, {
    access: 'public',
    rateLimit: options.rateLimit ?? true,
  });

/** `GET /metrics`: open to in-cluster scrapers unless METRICS_REQUIRE_KEY=true. */
export const MetricsAccess = () =>
  SetMetadata<string, AuthPolicy>(AUTH_POLICY, { access: 'metrics', rateLimit: true });
