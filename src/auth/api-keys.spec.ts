import { generateApiKey, hashApiKey, parseApiKeys } from '../config/api-key-entries';
import { ApiKeyRing } from './api-keys';
import { hasScope } from './scopes';

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

    it('carries the entry scopes into the principal; admin and unscoped keys have every scope', () => {
      const reader = generateApiKey('reader', [], ['context:read']);
      const admin = generateApiKey('ops', [], ['admin']);
      const ring = new ApiKeyRing(
        parseApiKeys(`${reader.line}\n${admin.line}\n${b.line}`, 'test').keys,
      );
      const readerKey = ring.match(reader.key)!;
      expect(readerKey).toEqual({ keyName: 'reader', locations: null, scopes: ['context:read'] });
      expect(hasScope(readerKey, 'context:read')).toBe(true);
      expect(hasScope(readerKey, 'ingest:write')).toBe(false);
      expect(hasScope(readerKey, 'history:delete')).toBe(false);
      expect(hasScope(readerKey, 'admin')).toBe(false);
      expect(hasScope(ring.match(admin.key)!, 'history:delete')).toBe(true);
      expect(hasScope(ring.match(b.key)!, 'admin')).toBe(true); // written before scopes
      expect(ring.size).toBe(3);
    });

    it('is disabled (open mode) without keys', () => {
      expect(new ApiKeyRing([]).enabled).toBe(false);
      expect(sut.enabled).toBe(true);
    });
  });
});
