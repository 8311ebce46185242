import { narrowed } from './vapi-auth.guard';

describe('narrowed (a Vapi secret with an API key sent alongside)', () => {
  const secret = { keyName: 'assistant-a', locations: ['loc_a', 'loc_c'] };

  it("keeps the secret's locations without a key or with an unbound one", () => {
    expect(narrowed(secret, undefined)).toEqual({
      keyName: 'vapi:assistant-a',
      locations: ['loc_a', 'loc_c'],
    });
    expect(narrowed(secret, { keyName: 'ops', locations: null }).locations).toEqual([
      'loc_a',
      'loc_c',
    ]);
  });

  it('reads only locations both credentials allow; none in common reads nothing', () => {
    expect(narrowed(secret, { keyName: 'k', locations: ['loc_c', 'loc_b'] }).locations).toEqual([
      'loc_c',
    ]);
    expect(narrowed(secret, { keyName: 'k', locations: ['loc_b'] }).locations).toEqual([]);
    expect(
      narrowed({ keyName: 'legacy', locations: null }, { keyName: 'k', locations: ['loc_b'] })
        .locations,
    ).toEqual(['loc_b']);
  });
});
