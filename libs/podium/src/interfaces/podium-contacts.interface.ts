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
}

export const LIVE_FIELDS = [
  'phone',
  'email',
  'opt_out_sms',
  'opt_out_email',
  'location_uid',
  'last_seen_at',
] as const;

export type ContactLookup = { status: 'found'; contact: LiveContact } | { status: 'not_found' };

/** Podium rejected our credentials: the spec degrades to a vector-only bundle. */
export class PodiumAuthError extends DomainError {
  constructor(message = 'Podium rejected the credentials') {
    super('podium_auth_failed', message, 503);
  }
}

/** The port every CRM provider implements (`local`, `api`). */
export interface PodiumContacts {
  getContact(contactUid: string, signal?: AbortSignal): Promise<ContactLookup>;
  /** Drops any cached copy of the contact (a webhook said it changed). Never throws. */
  invalidate(contactUid: string): Promise<void>;
  /** Resolves true when the live surface can answer. Never throws. */
  isHealthy(): Promise<boolean>;
}

export const PODIUM_CONTACTS = 'PODIUM_CONTACTS';
