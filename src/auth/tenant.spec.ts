import { type LiveContact } from '@app/podium';

import { TenantForbiddenError } from './auth.errors';
import { assertRecordsInScope, assertUnbound, contactInScope, scopedLocations } from './tenant';

const bound = ['loc_a', 'loc_b'] as const;

describe('tenant rules', () => {
  it('filters a bound caller to its locations, or to the one it names', () => {
    expect(scopedLocations(bound)).toEqual(['loc_a', 'loc_b']);
    expect(scopedLocations(bound, 'loc_b')).toEqual(['loc_b']);
    expect(() => scopedLocations(bound, 'loc_c')).toThrow(TenantForbiddenError);
  });

  it('leaves an unbound caller unfiltered unless it names a location', () => {
    expect(scopedLocations(undefined)).toBeUndefined();
    expect(scopedLocations(undefined, 'loc_c')).toEqual(['loc_c']);
  });

  it('shows a contact in several locations to a key bound to any of them, labelled with it', () => {
    const contact = (...location_uids: string[]): LiveContact => ({
      contact_uid: 'ctc',
      phone: null,
      email: null,
      opt_out_sms: null,
      opt_out_email: null,
      location_uid: location_uids[0] ?? null,
      last_seen_at: null,
      location_uids,
    });
    // Bound to A, contact in [B, A]: visible, as A's (not locations[0]).
    expect(contactInScope(['loc_a'], contact('loc_b', 'loc_a'))).toMatchObject({
      location_uid: 'loc_a',
      location_uids: ['loc_a'],
    });
    expect(contactInScope(bound, contact('loc_z', 'loc_b', 'loc_a'))).toMatchObject({
      location_uid: 'loc_b',
      location_uids: ['loc_b', 'loc_a'],
    });
    // Unbound keys see it as the CRM has it.
    expect(contactInScope(undefined, contact('loc_z'))).toEqual(contact('loc_z'));
    // Elsewhere or nowhere: as if unknown.
    expect(contactInScope(bound, contact('loc_z'))).toBeUndefined();
    expect(contactInScope(bound, contact())).toBeUndefined();
  });

  it('refuses a batch with any record outside the binding, listing the indexes', () => {
    const records = [
      { location_uid: 'loc_a' },
      { location_uid: 'loc_z' },
      { text: 'no location' },
      'not an object: left to validation',
      { location_uid: ['loc_a'] },
    ];
    expect(() => assertRecordsInScope(undefined, records)).not.toThrow();
    expect(() => assertRecordsInScope(bound, records.slice(0, 1))).not.toThrow();
    let error: unknown;
    try {
      assertRecordsInScope(bound, records);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TenantForbiddenError);
    expect(error).toMatchObject({ httpStatus: 403, details: { indexes: [1, 2, 4] } });
  });

  it('keeps shared data writable by unbound keys only', () => {
    expect(() => assertUnbound(undefined, 'the KB')).not.toThrow();
    expect(() => assertUnbound(bound, 'the KB')).toThrow(TenantForbiddenError);
  });
});
