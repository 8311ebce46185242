import { DependencyError, untilAborted } from '@app/common';
import { Logger, type OnModuleDestroy } from '@nestjs/common';

import {
  type ContactLookup,
  PodiumAuthError,
  type PodiumContacts,
  type PodiumStatus,
} from '../interfaces/podium-contacts.interface';
import { type ContactCache } from './cache/contact-cache';
import { contactIdentifiers, toLiveContact } from './contact-mapping';
import { PodiumContactsHttp } from './contacts-http';
import { LookupBudget, PodiumLookupBudgetError } from './lookup-budget';
import { PodiumRateLimitedError } from './podium-api.errors';
import { type ResolvedPodiumApiOptions } from './podium-api.options';
import { PodiumBreaker } from './podium-breaker';
import { PodiumRateLimit } from './podium-rate-limit';
import { type RefreshTokenStore } from './refresh-token-store';
import { PodiumTokenManager } from './token-manager';

/** Collaborators; tests swap the clock or the cache. */
export interface ApiPodiumContactsDeps {
  /** Omitted when the cache is off (`cacheTtlMs` 0). */
  cache?: ContactCache;
  tokens?: PodiumTokenManager;
  /** Where rotated refresh tokens are kept (encrypted); memory only without it. */
  tokenStore?: RefreshTokenStore;
  /** False: no token refresh in this process (see PodiumTokenManagerOptions.refresh). */
  tokenRefresh?: boolean;
  now?: () => number;
}

interface Fetched {
  lookup: ContactLookup;
  /** The contact's other identifiers, for invalidation by any of them. */
  aliases: string[];
}

/**
 * The `api` provider: live contacts from Podium's v4 API.
 *
 * A lookup reads the cache, then (through the circuit breaker) gets an access token and
 * `GET /contacts/{identifier}`:
 * - 401: renew the token once (single-flight) and retry once; a second 401 is an auth failure.
 * - 403, or a refresh token Podium rejects: {@link PodiumAuthError}, which the bridge maps to a
 *   vector-only bundle; `status()` reports `auth_rejected` until a lookup succeeds again.
 * - 404 (`resource_not_found`): `{ status: 'not_found' }`, cached briefly.
 * - 429: waits the `Retry-After` (or a short back-off) and retries once, only when the wait is
 *   at most `maxRetryWaitMs`; otherwise fails fast. Until Podium's wait is over, every call
 *   fails fast without a request, so a rate-limited Podium is not hammered.
 * - 5xx, network failures and deadline aborts count towards the breaker; after
 *   `breakerFailures` in a row it opens and calls fail fast (`podium_circuit_open`)
 *   until, after `breakerCooldownMs`, a single probe is let through; concurrent calls keep
 *   failing fast while it is out.
 * Every wait (token, back-off, request, body) ends when the caller's signal aborts. The breaker
 * is podium-breaker.ts, the 429 gate podium-rate-limit.ts, the wire contacts-http.ts.
 */
export class ApiPodiumContacts implements PodiumContacts, OnModuleDestroy {
  private readonly logger = new Logger('PodiumApi');
  private readonly http: PodiumContactsHttp;
  private readonly tokens: PodiumTokenManager;
  private readonly breaker: PodiumBreaker;
  private readonly rateLimit: PodiumRateLimit;
  private readonly cache?: ContactCache;
  /** The API refused a valid-looking token (403, or 401 twice) since the last success. */
  private apiAuthRejected = false;
  /** Podium requests per caller per minute: the org's quota is shared by every tenant. */
  private readonly budget: LookupBudget;

  constructor(
    private readonly options: ResolvedPodiumApiOptions,
    deps: ApiPodiumContactsDeps = {},
  ) {
    const now = deps.now ?? Date.now;
    this.budget = new LookupBudget(options.lookupsPerCallerPerMinute, now);
    this.rateLimit = new PodiumRateLimit(options.maxRetryWaitMs, now);
    this.cache = options.cacheTtlMs > 0 ? deps.cache : undefined;
    this.http = new PodiumContactsHttp(options);
    this.tokens =
      deps.tokens ??
      new PodiumTokenManager({
        ...options,
        retryRejectedAfterMs: options.breakerCooldownMs,
        now,
        store: deps.tokenStore,
        refresh: deps.tokenRefresh,
      });
    this.breaker = new PodiumBreaker(options);
  }

  async getContact(
    contactUid: string,
    signal?: AbortSignal,
    caller?: string,
  ): Promise<ContactLookup> {
    // Out of time before anything was sent: not a Podium failure, and not a breaker probe.
    signal?.throwIfAborted();
    // The read's stamp guards the write-back: see remember().
    const read = this.cache ? await untilAborted(this.cache.read(contactUid), signal) : {};
    if (read.lookup) {
      return read.lookup;
    }
    // Only a request costs Podium quota, so only a cache miss is counted.
    if (caller !== undefined && !this.budget.take(caller)) {
      throw new PodiumLookupBudgetError(this.budget.perMinute);
    }
    let fetched: Fetched;
    try {
      fetched = await this.breaker.run(() => this.attempt(contactUid, signal), signal);
    } catch (error) {
      if (error instanceof PodiumAuthError) {
        this.apiAuthRejected = true;
      }
      throw error;
    }
    this.apiAuthRejected = false;
    this.remember(contactUid, fetched, read.stamp);
    return fetched.lookup;
  }

  /**
   * Marks the contact invalidated (a lookup in flight from before cannot re-cache it), then
   * drops the cached copy. A cache that refuses the drop fails the call: swallowing it would
   * mark a `contact.deleted` webhook done while the shared cache keeps serving the contact.
   */
  async invalidate(contactUid: string): Promise<void> {
    try {
      await this.cache?.invalidate(contactUid);
    } catch (error) {
      // The reason only: a Redis error can quote the command, and its keys are identifiers.
      this.logger.warn(`the contact cache refused an invalidation (${(error as Error).name})`);
      throw new DependencyError(
        'contact_cache_failed',
        'The contact cache could not drop a changed contact; retry.',
      );
    }
  }

  async isHealthy(): Promise<boolean> {
    return (await this.status()).status === 'up';
  }

  status(): Promise<PodiumStatus> {
    if (this.tokens.rejected || this.apiAuthRejected) {
      return Promise.resolve({ status: 'degraded', reason: 'auth_rejected' });
    }
    if (!this.breaker.closed) {
      return Promise.resolve({ status: 'degraded', reason: 'circuit_open' });
    }
    if (this.rateLimit.active) {
      return Promise.resolve({ status: 'degraded', reason: 'rate_limited' });
    }
    return Promise.resolve({ status: 'up' });
  }

  async onModuleDestroy(): Promise<void> {
    await this.cache?.close();
  }

  /** Token, request, and at most one renewal and one 429 retry. */
  private async attempt(contactUid: string, signal?: AbortSignal): Promise<Fetched> {
    await this.rateLimit.waitOut(signal);
    let token = await this.tokens.accessToken(signal);
    let renewed = false;
    let waited = false;
    for (;;) {
      const response = await this.http.get(contactUid, token, signal);
      switch (response.kind) {
        case 'found':
          return {
            lookup: { status: 'found', contact: toLiveContact(contactUid, response.contact) },
            aliases: contactIdentifiers(response.contact),
          };
        case 'not_found':
          return { lookup: { status: 'not_found' }, aliases: [] };
        case 'unauthenticated':
          if (renewed) {
            throw new PodiumAuthError('Podium rejected a freshly issued access token.');
          }
          renewed = true;
          token = await this.tokens.renew(token, signal);
          continue;
        case 'forbidden':
          throw new PodiumAuthError(
            'Podium refused access to contacts; the app needs the read_contacts scope.',
          );
        case 'rate_limited': {
          const waitMs = response.retryAfterMs ?? this.options.rateLimitBackoffMs;
          const fits = this.rateLimit.note(waitMs);
          if (waited || !fits) {
            throw new PodiumRateLimitedError();
          }
          waited = true;
          await this.rateLimit.backOff(waitMs, signal);
          continue;
        }
        case 'rejected':
          throw new DependencyError(
            'podium_request_rejected',
            `Podium rejected the contact request (HTTP ${response.status}` +
              `${response.code ? `, ${response.code}` : ''}).`,
          );
      }
    }
  }

  /**
   * Caches the answer unless the contact (by any of its identifiers) was invalidated while it
   * was being fetched, on this replica or, with a shared cache, any other: the cache refuses
   * a write whose stamp predates an invalidation. No stamp (the read failed): not cached.
   */
  private remember(contactUid: string, fetched: Fetched, stamp: number | undefined): void {
    if (!this.cache || stamp === undefined) {
      return;
    }
    const ttlMs =
      fetched.lookup.status === 'found'
        ? this.options.cacheTtlMs
        : Math.min(this.options.cacheTtlMs, this.options.notFoundTtlMs);
    // Not awaited: the caller has its answer; a failed write is only a later miss.
    this.cache
      .set(contactUid, fetched.lookup, ttlMs, fetched.aliases, stamp)
      .catch(() => undefined);
  }
}
