import { DomainError } from '@app/common';

/**
 * The live CRM fields the spec lists. They mutate, so they always come from the live
 * surface and always win over anything the vector store remembers.
 */
export interface LiveContact {
  contact_uid: string;
  phone: string | null;
  email: string | null;
  opt_out_sms: boolean | null;
  opt_out_email: boolean | null;
  location_uid: string | null;
  last_seen_at: string | null;
  /**
   * Every location the contact belongs to (a Podium contact can be in several), the first
   * being `location_uid`. Not a live field of the bundle: tenant checks read it, so a key
   * bound to any one of them may read the contact.
   */
  location_uids: string[];
}

export const LIVE_FIELDS = [
  'phone',
  'email',
  'opt_out_sms',
  'opt_out_email',
  'location_uid',
  'last_seen_at',
] as const;

/** `not_configured`: there is no live CRM (`none`), so no contact has live fields. */
export type ContactLookup =
  | { status: 'found'; contact: LiveContact }
  | { status: 'not_found' }
  | { status: 'not_configured' };

/** Podium rejected our credentials: the spec degrades to a vector-only bundle. */
export class PodiumAuthError extends DomainError {
  constructor(message = 'Podium rejected the credentials') {
    super('podium_auth_failed', message, 503);
  }
}

/** Why the live surface is degraded; the bridge still answers, with vector-only bundles. */
export type PodiumDegradedReason =
  /** Podium refused our refresh token or access token (revoked, expired, missing scope). */
  | 'auth_rejected'
  /** Podium kept failing; the circuit breaker is open (or probing) and calls fail fast. */
  | 'circuit_open'
  /** Podium answered 429; calls fail fast until its Retry-After has passed. */
  | 'rate_limited'
  /** The surface cannot be reached at all (e.g. the local table's database is down). */
  | 'unreachable';

/**
 * The live surface's state for readiness. Degraded never fails the pod: without live
 * fields the bridge still serves vector-only bundles, as the spec's error table says.
 * `not_configured`: there is no live CRM (`none`), by configuration rather than failure.
 */
export type PodiumStatus =
  | { status: 'up' }
  | { status: 'degraded'; reason: PodiumDegradedReason }
  | { status: 'not_configured' };

/** A contact as a picker lists it: its id, name and location (no other field). */
export interface ContactSummary {
  contact_uid: string;
  name: string | null;
  location_uid: string | null;
}

/** The port every CRM provider implements (`local`, `api`, `none`). */
export interface PodiumContacts {
  /**
   * Up to `limit` contacts by id, only inside `locationUids` when given (a bound key's).
   * Optional: the embedded table can list itself; Podium's API is not walked for a picker.
   */
  list?(limit: number, locationUids?: readonly string[]): Promise<ContactSummary[]>;
  /**
   * The contact's live fields. `signal` is the caller's deadline: implementations stop
   * (and reject) when it aborts instead of holding the caller past it. `caller` names who
   * asks (a location-bound key's scope): a vendor-backed provider bounds the requests each
   * caller may cause; without it nothing is counted.
   */
  getContact(contactUid: string, signal?: AbortSignal, caller?: string): Promise<ContactLookup>;
  /**
   * Drops any cached copy of the contact (a webhook said it changed). `contactUid` may be any
   * identifier of the contact the provider knows. Rejects with `DependencyError`
   * (`contact_cache_failed`) when a shared cache could not drop it: a deleted or merged
   * contact's live fields would otherwise go on being served, so the caller must fail (a
   * webhook event is then retried) rather than report the work done.
   */
  invalidate(contactUid: string): Promise<void>;
  /** Resolves true when the live surface can answer (`status()` is `up`). Never throws. */
  isHealthy(): Promise<boolean>;
  /** The surface's state and, when degraded, why. Never throws. */
  status(): Promise<PodiumStatus>;
}

export const PODIUM_CONTACTS = 'PODIUM_CONTACTS';
