import { type DeadlineResult } from '@app/common';
import { type ContactLookup, LIVE_FIELDS, PodiumAuthError } from '@app/podium';

import { type LocationScope } from '../auth/principal';
import { contactInScope } from '../auth/tenant';
import { type BundleContact } from './context.dto';

/** The live answer as `scope` may see it: a contact outside it reads as not found. */
export function scopeLive(
  outcome: DeadlineResult<ContactLookup>,
  scope: LocationScope,
): DeadlineResult<ContactLookup> {
  if (outcome.status !== 'ok' || outcome.value.status !== 'found') {
    return outcome;
  }
  const contact = contactInScope(scope, outcome.value.contact);
  return { ...outcome, value: contact ? { status: 'found', contact } : { status: 'not_found' } };
}

/**
 * The contact block from the live lookup's outcome. Only live fields are copied, and only
 * from the live surface: nothing remembered by the vector store can fill or override them.
 */
export function toBundleContact(outcome: DeadlineResult<ContactLookup> | undefined): BundleContact {
  if (!outcome) {
    return { live_fields_available: false };
  }
  switch (outcome.status) {
    case 'timeout':
      return { live_fields_available: false, error: 'timeout' };
    case 'error':
      return {
        live_fields_available: false,
        error: outcome.error instanceof PodiumAuthError ? 401 : 'unavailable',
      };
    case 'ok':
      if (outcome.value.status === 'not_found') {
        return { live_fields_available: false, error: 404 };
      }
      if (outcome.value.status === 'not_configured') {
        // By configuration, not a failure: the lookup answered in time, so not `partial`.
        return { live_fields_available: false, error: 'not_configured' };
      }
      return {
        ...Object.fromEntries(
          LIVE_FIELDS.map((field) => [
            field,
            outcome.value.status === 'found' ? outcome.value.contact[field] : null,
          ]),
        ),
        live_fields_available: true,
      };
  }
}
