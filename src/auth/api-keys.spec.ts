import { createHash } from 'node:crypto';

import {
  API_KEY_PREFIX,
  ApiKeyRing,
  duplicateKeyProblems,
  generateApiKey,
  hashApiKey,
  parseApiKeys,
} from './api-keys';

describe('API keys', () => {
  describe('generateApiKey', () => {
    it('makes a 256-bit key whose config line holds only its sha256', () => {
      const sut = generateApiKey('voice-agent', ['loc_a', 'loc:b']);
      expect(sut.key.startsWith(API_KEY_PREFIX)).toBe(true);
      expect(Buffer.from(sut.key.slice(API_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
      expect(sut.line).toBe(
        `voice-agent:${createHash('sha256').update(sut.key).digest('hex')}:loc_a|loc:b`,
      );
      expect(sut.line).not.toContain(sut.key);
      expect(generateApiKey('x').key).not.toBe(generateApiKey('x').key);
    });

    it('refuses names and locations the parser would refuse', () => {
      expect(() => generateApiKey('has space')).toThrow(/key name/);
      expect(() => generateApiKey('ok', ['a|b'])).toThrow(/location_uid/);
    });
  });

  describe('parseApiKeys', () => {
    it('round-trips what generateApiKey prints', () => {
      const a = generateApiKey('a');
      const b = generateApiKey('b', ['loc_1']);
      expect(parseApiKeys(`${a.line},${b.line}`, 'API_KEYS')).toEqual({
        keys: [
          { name: 'a', sha256: hashApiKey(a.key), locations: null },
          { name: 'b', sha256: hashApiKey(b.key), locations: ['loc_1'] },
        ],
        problems: [],
      });
    });

    it('reports duplicate names and hashes across sources', () => {
      const hash = 'f'.repeat(64);
      expect(
        duplicateKeyProblems([
          { name: 'a', sha256: hash, locations: null },
          { name: 'a', sha256: 'e'.repeat(64), locations: null },
          { name: 'b', sha256: hash, locations: null },
        ]),
      ).toEqual([
        'API_KEYS: key name "a" is configured twice',
        'API_KEYS: key "b" has the same hash as another key',
      ]);
    });
  });

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
