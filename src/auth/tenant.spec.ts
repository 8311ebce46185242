import { TenantForbiddenError } from './auth.errors';
import {
  assertContactInScope,
  assertRecordsInScope,
  assertUnbound,
  scopedLocations,
} from './tenant';

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

  it('refuses a contact the CRM places elsewhere or nowhere, without saying where', () => {
    expect(() => assertContactInScope(bound, 'loc_a')).not.toThrow();
    expect(() => assertContactInScope(undefined, 'loc_z')).not.toThrow();
    for (const location of ['loc_z', null]) {
      let error: unknown;
      try {
        assertContactInScope(bound, location);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TenantForbiddenError);
      expect(error).toMatchObject({ code: 'location_forbidden', httpStatus: 403 });
      expect((error as Error).message).not.toContain('loc_z');
    }
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
