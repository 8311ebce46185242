import { exceedsDepth, MAX_JSON_DEPTH } from './json-depth';

const nested = (depth: number): unknown => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);

describe('exceedsDepth', () => {
  it('allows up to the limit and refuses one level more', () => {
    expect(exceedsDepth(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsDepth(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsDepth({ a: [{ b: { c: 1 } }] }, 4)).toBe(false);
    expect(exceedsDepth({ a: [{ b: { c: {} } }] }, 4)).toBe(true);
  });

  it('handles scalars, and depths that would overflow a recursive walk', () => {
    expect(exceedsDepth('x')).toBe(false);
    expect(exceedsDepth(null)).toBe(false);
    expect(exceedsDepth(nested(100_000))).toBe(true);
  });
});
