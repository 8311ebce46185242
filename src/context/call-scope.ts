import { type VectorFilter } from '@app/vector';

import { type LocationScope } from '../auth/principal';
import { type ContextRequestDto } from './context.dto';

type CallFields = Pick<ContextRequestDto, 'call_id' | 'contact_uid' | 'location_uid'>;

/**
 * The coalescer's key for a chunk's call: keyed by tenant and contact too, so a reused
 * call_id never reads another call's words. Undefined without a call.
 */
export function coalescerKey(request: CallFields, scope: LocationScope): string | undefined {
  return (
    request.call_id &&
    `${request.location_uid ?? scope?.join('|') ?? ''}/${request.contact_uid ?? ''}/${request.call_id}`
  );
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
