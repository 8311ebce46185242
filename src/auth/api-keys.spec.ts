import { generateApiKey, hashApiKey, parseApiKeys } from '../config/api-key-entries';
import { ApiKeyRing } from './api-keys';

describe('API keys', () => {
  describe('ApiKeyRing', () => {
    const a = generateApiKey('svc-a', ['loc_a']);
    const b = generateApiKey('svc-b');
    const sut = new ApiKeyRing(parseApiKeys(`${a.line}\n${b.line}`, 'test').keys);

    it('matches each key to its own principal, and nothing else', () => {
      expect(sut.match(a.key)).toEqual({ keyName: 'svc-a', locations: ['loc_a'] });
      expect(sut.match(b.key)).toEqual({ keyName: 'svc-b', locations: null });
      expect(sut.match(`${a.key}x`)).toBeUndefined();
      expect(sut.match(hashApiKey(a.key))).toBeUndefined(); // the hash is not a key
      expect(sut.match('')).toBeUndefined();
      expect(sut.match('x'.repeat(10_000))).toBeUndefined();
    });

    it('reads x-api-key first, then a Bearer token (any case)', () => {
      expect(sut.identify({ 'x-api-key': a.key })).toMatchObject({ kind: 'key' });
      expect(sut.identify({ authorization: `bearer ${b.key}` })).toEqual({
        kind: 'key',
        principal: { keyName: 'svc-b', locations: null },
      });
      expect(sut.identify({ 'x-api-key': 'nope', authorization: `Bearer ${b.key}` })).toEqual({
        kind: 'invalid',
      });
    });

    it('tells missing credentials from wrong ones', () => {
      expect(sut.identify({})).toEqual({ kind: 'missing' });
      expect(sut.identify({ authorization: `Basic ${a.key}` })).toEqual({ kind: 'invalid' });
      expect(sut.identify({ 'x-api-key': [a.key, a.key] })).toEqual({ kind: 'invalid' });
    });

    it('is disabled (open mode) without keys', () => {
      expect(new ApiKeyRing([]).enabled).toBe(false);
      expect(sut.enabled).toBe(true);
    });
  });
});
