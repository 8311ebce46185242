import { currentScopeSetting, scopeSetting, withDatabaseScope } from './database-scope';

/** A promise settled from outside, to interleave two scopes' work deterministically. */
function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('database scope', () => {
  it('is every location outside any scope: the service’s own work', () => {
    expect(currentScopeSetting()).toBe('*');
  });

  it('follows the work it was given across awaits and callbacks, and ends with it', async () => {
    const seen = await withDatabaseScope({ kind: 'locations', locations: ['loc_a'] }, async () => {
      await Promise.resolve();
      const later = await new Promise<string>((resolve) =>
        setImmediate(() => resolve(currentScopeSetting())),
      );
      return [currentScopeSetting(), later];
    });
    expect(seen).toEqual(['{"loc_a"}', '{"loc_a"}']);
    expect(currentScopeSetting()).toBe('*');
  });

  it('keeps concurrent scopes apart while their work interleaves', async () => {
    const gate = deferred();
    const a = withDatabaseScope({ kind: 'locations', locations: ['a'] }, async () => {
      await gate.promise; // resumes only after b has run and finished
      return currentScopeSetting();
    });
    const b = withDatabaseScope({ kind: 'locations', locations: ['b'] }, async () => {
      await Promise.resolve();
      const seen = currentScopeSetting();
      gate.resolve();
      return seen;
    });
    expect(await Promise.all([a, b])).toEqual(['{"a"}', '{"b"}']);
  });

  it('quotes every location, escaping quotes and backslashes; no location is no row', () => {
    const sut = scopeSetting({ kind: 'locations', locations: ['a"b', 'c\\d', 'e,f', '*'] });
    expect(sut).toBe('{"a\\"b","c\\\\d","e,f","*"}');
    expect(scopeSetting({ kind: 'locations', locations: [] })).toBe('{}');
    expect(scopeSetting({ kind: 'every' })).toBe('*');
  });
});
