import { untilAborted } from '@app/common';
import { Logger } from '@nestjs/common';

import { PodiumAuthError } from '../interfaces/podium-contacts.interface';
import { withCeiling } from './abortable';
import { PodiumUnavailableError } from './podium-api.errors';
import { oauthErrorCode, parseJson, tokenFromBody } from './podium-wire';
import { type RefreshTokenStore } from './refresh-token-store';

/** Options for {@link PodiumTokenManager}. */
export interface PodiumTokenManagerOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
  /** Refresh this long before expiry (capped at half the token's life). */
  refreshSkewMs: number;
  /** Ceiling for one token request; the refresh is shared, so no caller's deadline applies. */
  requestTimeoutMs: number;
  /** After Podium rejects the refresh token, ask again at most this often. */
  retryRejectedAfterMs: number;
  /** Clock (ms since epoch); tests inject one. */
  now?: () => number;
  /** Keeps rotated refresh tokens across restarts and replicas; memory only without it. */
  store?: RefreshTokenStore;
  /**
   * False: never ask the token endpoint (a CLI process: a refresh there would rotate the
   * refresh token from under the server); every token request fails as rejected.
   */
  refresh?: boolean;
}

interface AccessToken {
  value: string;
  /** From here on a refresh starts in the background; the token is still used meanwhile. */
  refreshAt: number;
  /** From here on callers wait for a new token. */
  expiresAt: number;
}

/** Used when the token response has no `expires_in` (Podium documents 10 hours; assume less). */
const DEFAULT_LIFETIME_S = 3600;

/**
 * OAuth2 refresh-token grant for Podium, shared by every lookup of the process.
 *
 * - **Single-flight.** However many callers need a token at once, one request goes to the
 *   token endpoint; the others await it, each bounded by its own deadline signal.
 * - **Proactive.** Within `refreshSkewMs` of expiry a refresh starts in the background while
 *   the still-valid token keeps being handed out, so no lookup pays for the refresh.
 * - **401.** {@link renew} refreshes only if the rejected token is still the current one, so
 *   a burst of 401s for the same token costs exactly one refresh.
 * - **Rotation.** When Podium returns a new `refresh_token`, it replaces the old one and is
 *   saved (encrypted) to the `store`, so a restart or another replica picks it up; a rejected
 *   refresh first re-reads the store in case another replica rotated it.
 * - **Rejection.** A 400/401/403 from the token endpoint (`invalid_grant`, `invalid_client`, …)
 *   marks the manager `rejected` and rejects with {@link PodiumAuthError}; the endpoint is
 *   asked again at most every `retryRejectedAfterMs`.
 * - Tokens and secrets are never logged; log lines carry HTTP statuses and OAuth error codes.
 */
export class PodiumTokenManager {
  private readonly logger = new Logger('PodiumTokenManager');
  private readonly now: () => number;
  private refreshToken: string;
  private token?: AccessToken;
  private inflight?: Promise<string>;
  private rejectedAt?: number;
  private requests = 0;
  /** Whether the store was read once (it may not be open at the first refresh). */
  private loaded = false;

  constructor(private readonly options: PodiumTokenManagerOptions) {
    this.now = options.now ?? Date.now;
    this.refreshToken = options.refreshToken;
  }

  /** True while Podium's last answer to our refresh token was a rejection. */
  get rejected(): boolean {
    return this.rejectedAt !== undefined;
  }

  /** Requests sent to the token endpoint so far (for metrics and tests). */
  get tokenRequests(): number {
    return this.requests;
  }

  /** A usable access token, refreshing first only when there is none or it has expired. */
  async accessToken(signal?: AbortSignal): Promise<string> {
    const token = this.token;
    const now = this.now();
    if (token && now < token.refreshAt) {
      return token.value;
    }
    if (token && now < token.expiresAt) {
      // Failures are recorded by the refresh itself (rejected state, logs); the current
      // token stays valid until it expires, so nobody waits for this one.
      this.refresh().catch(() => undefined);
      return token.value;
    }
    return untilAborted(this.refresh(), signal);
  }

  /**
   * A new access token after the API answered 401 to `rejectedToken`. Refreshes at most once
   * per rejected token: a caller whose 401 arrives after someone else's refresh just gets
   * the newer token.
   */
  async renew(rejectedToken: string, signal?: AbortSignal): Promise<string> {
    if (this.token && this.token.value !== rejectedToken) {
      return this.token.value;
    }
    if (!this.inflight) {
      this.token = undefined; // Podium says it is dead, whatever its expiry said
    }
    return untilAborted(this.refresh(), signal);
  }

  private refresh(): Promise<string> {
    this.inflight ??= this.exchange().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  /**
   * Adopts the stored token of our chain when it differs from ours (a previous process or
   * another replica rotated it). True when it changed. Never throws: the store is a help.
   */
  private async adoptStored(): Promise<boolean> {
    const store = this.options.store;
    if (!store) {
      return false;
    }
    try {
      const stored = await store.load(this.options.refreshToken);
      this.loaded = true;
      if (stored && stored !== this.refreshToken) {
        this.refreshToken = stored;
        return true;
      }
    } catch (error) {
      this.logger.warn(`stored Podium refresh token not read (${(error as Error).name})`);
    }
    return false;
  }

  private async exchange(retried = false): Promise<string> {
    if (this.options.refresh === false) {
      throw new PodiumAuthError('Podium token refresh is off in this process (the CLI).');
    }
    if (!this.loaded) {
      await this.adoptStored();
    }
    if (
      this.rejectedAt !== undefined &&
      this.now() - this.rejectedAt < this.options.retryRejectedAfterMs
    ) {
      throw new PodiumAuthError('Podium rejected the refresh token; reconnect the Podium app.');
    }
    const sentAt = this.now();
    this.requests++;
    let response: Response;
    try {
      // JSON body, as Podium's own sample apps send it to the token endpoint.
      response = await fetch(this.options.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({
          grant_type: 'refresh_token',
          client_id: this.options.clientId,
          client_secret: this.options.clientSecret,
          refresh_token: this.refreshToken,
        }),
        signal: withCeiling(this.options.requestTimeoutMs),
      });
    } catch (error) {
      throw new PodiumUnavailableError(
        `Podium token endpoint did not answer (${(error as Error).name})`,
      );
    }
    const text = await response.text().catch(() => '');
    if (response.status === 400 || response.status === 401 || response.status === 403) {
      // Another replica may have rotated the token under us: Podium retired ours.
      if (!retried && (await this.adoptStored())) {
        return this.exchange(true);
      }
      const code = oauthErrorCode(parseJson(text)) ?? 'no error code';
      this.rejectedAt = this.now();
      this.logger.error(
        `Podium rejected the refresh token (HTTP ${response.status}, ${code}); live lookups ` +
          'are degraded to vector-only bundles until the Podium app is reconnected',
      );
      throw new PodiumAuthError(`Podium rejected the refresh token (${code}).`);
    }
    if (!response.ok) {
      throw new PodiumUnavailableError(`Podium token endpoint answered HTTP ${response.status}`);
    }
    const body = tokenFromBody(parseJson(text));
    if (!body) {
      throw new PodiumUnavailableError('Podium token endpoint returned no access token');
    }
    if (this.rejectedAt !== undefined) {
      this.logger.log('Podium accepted the refresh token again');
    }
    this.rejectedAt = undefined;
    if (body.refresh_token && body.refresh_token !== this.refreshToken) {
      this.refreshToken = body.refresh_token;
      await this.persist(body.refresh_token);
    }
    // Lifetimes count from when the request left, so transit time can only shorten them.
    const lifetimeMs = (body.expires_in ?? DEFAULT_LIFETIME_S) * 1000;
    const skewMs = Math.min(this.options.refreshSkewMs, lifetimeMs / 2);
    this.token = {
      value: body.access_token,
      refreshAt: sentAt + lifetimeMs - skewMs,
      expiresAt: sentAt + lifetimeMs,
    };
    this.logger.debug(`Podium access token refreshed (valid ${Math.round(lifetimeMs / 1000)} s)`);
    return body.access_token;
  }

  /** Saved before use: Podium has retired the old token, so losing this one means re-auth. */
  private async persist(token: string): Promise<void> {
    if (!this.options.store) {
      this.logger.log('Podium rotated the refresh token; kept in memory only (no encryption key)');
      return;
    }
    try {
      await this.options.store.save(this.options.refreshToken, token);
      this.logger.log('Podium rotated the refresh token; the new one is stored encrypted');
    } catch (error) {
      this.logger.error(
        `Podium rotated the refresh token but it could not be stored (${(error as Error).name}); ` +
          'a restart may come up auth_rejected',
      );
    }
  }
}
