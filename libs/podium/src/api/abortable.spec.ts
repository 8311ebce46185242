import { parseRetryAfter } from './abortable';

describe('parseRetryAfter', () => {
  it.each([
    ['0', 0],
    ['2', 2000],
    [' 30 ', 30_000],
  ])('reads delay-seconds %p', (value, ms) => {
    expect(parseRetryAfter(value)).toBe(ms);
  });

  it('reads an HTTP-date relative to now, never negative', () => {
    const now = Date.parse('Wed, 02 Dec 2026 10:00:00 GMT');
    expect(parseRetryAfter('Wed, 02 Dec 2026 10:00:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 02 Dec 2026 09:00:00 GMT', now)).toBe(0);
  });

  it.each([[null], [''], ['soon'], ['-1']])('ignores %p', (value) => {
    expect(parseRetryAfter(value)).toBeUndefined();
  });
});
