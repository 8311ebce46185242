import { type VectorFilter } from '@app/vector';

import { type ContextRequestDto } from './context.dto';
import { type CallIdentity, CallSessions } from './speculative/call-sessions';

/**
 * The coalescer's key for a chunk's call: the call's own session key (caller, tenant, contact
 * and call id), so a reused call_id never reads another key's, tenant's or contact's words
 * (`meta.query` echoes them unredacted). Undefined without a call.
 */
export function coalescerKey(call: CallIdentity | undefined): string | undefined {
  return call && CallSessions.keyOf(call);
}

/**
 * The history filter. The 404 deviation: an unknown contact keeps the filter, it never
 * widens the search. Tenant scoping is part of the same filter, applied inside the store's query.
 */
export function historyFilter(
  request: Pick<ContextRequestDto, 'contact_uid'>,
  locations: string[] | undefined,
): VectorFilter {
  return {
    ...(request.contact_uid ? { contact_uid: request.contact_uid } : {}),
    ...(locations ? { location_uids: locations } : {}),
  };
}
