import { createHash } from 'node:crypto';

import {
  API_KEY_PREFIX,
  duplicateKeyProblems,
  generateApiKey,
  hashApiKey,
  parseApiKeys,
} from './api-key-entries';

describe('API key entries', () => {
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
});
