import { currentScopeSetting, scopeSetting, withDatabaseScope } from './database-scope';

describe('database scope', () => {
  it('is every location outside any scope: the service’s own work', () => {
    expect(currentScopeSetting()).toBe('*');
  });

  it('follows the work it was given across awaits and timers, and ends with it', async () => {
    const seen = await withDatabaseScope({ kind: 'locations', locations: ['loc_a'] }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      const later = await new Promise<string>((resolve) =>
        setImmediate(() => resolve(currentScopeSetting())),
      );
      return [currentScopeSetting(), later];
    });
    expect(seen).toEqual(['{"loc_a"}', '{"loc_a"}']);
    expect(currentScopeSetting()).toBe('*');
  });

  it('keeps concurrent scopes apart', async () => {
    const run = (location: string) =>
      withDatabaseScope({ kind: 'locations', locations: [location] }, async () => {
        await new Promise((resolve) => setTimeout(resolve, location === 'a' ? 5 : 1));
        return currentScopeSetting();
      });
    expect(await Promise.all([run('a'), run('b')])).toEqual(['{"a"}', '{"b"}']);
  });

  it('quotes every location, escaping quotes and backslashes; no location is no row', () => {
    const sut = scopeSetting({ kind: 'locations', locations: ['a"b', 'c\\d', 'e,f', '*'] });
    expect(sut).toBe('{"a\\"b","c\\\\d","e,f","*"}');
    expect(scopeSetting({ kind: 'locations', locations: [] })).toBe('{}');
    expect(scopeSetting({ kind: 'every' })).toBe('*');
  });
});
