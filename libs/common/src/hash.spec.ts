import { contentHash, uuidFromHash } from './hash';

describe('content hashes and ids', () => {
  it('separates parts, so concatenation ambiguities do not collide', () => {
    expect(contentHash('a', 'bc')).not.toBe(contentHash('ab', 'c'));
    expect(contentHash('a', 'bc')).toBe(contentHash('a', 'bc'));
  });

  it('derives a stable RFC 4122-shaped uuid', () => {
    const sut = uuidFromHash(contentHash('x'));
    expect(sut).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(uuidFromHash(contentHash('x'))).toBe(sut);
    expect(uuidFromHash(contentHash('y'))).not.toBe(sut);
  });
});
