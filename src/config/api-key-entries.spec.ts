import { createHash } from 'node:crypto';

import {
  API_KEY_PREFIX,
  apiKeyLine,
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

    it('reads ;scopes= after the locations or the hash, and keeps unscoped entries unscoped', () => {
      const hash = 'a'.repeat(64);
      const { keys, problems } = parseApiKeys(
        [
          `agent:${hash}:loc:1|loc_2;scopes=context:read|search:read`,
          `ops:${'b'.repeat(64)};scopes= admin | admin `,
          `legacy:${'c'.repeat(64)}`,
        ].join('\n'),
        'API_KEYS_FILE',
      );
      expect(problems).toEqual([]);
      expect(keys).toEqual([
        {
          name: 'agent',
          sha256: hash,
          locations: ['loc:1', 'loc_2'],
          scopes: ['context:read', 'search:read'],
        },
        { name: 'ops', sha256: 'b'.repeat(64), locations: null, scopes: ['admin'] },
        { name: 'legacy', sha256: 'c'.repeat(64), locations: null },
      ]);
      expect(keys[2]).not.toHaveProperty('scopes');
    });

    it.each([
      ['an unknown scope', ';scopes=context:write', /unknown scope/],
      ['an empty scope list', ';scopes=', /empty or unknown scope/],
      ['an empty scope between bars', ';scopes=admin||search:read', /empty or unknown scope/],
      ['scopes set twice', ';scopes=admin;scopes=admin', /twice/],
      ['another attribute', ';expires=2030-01-01', /attribute/],
      ['an attribute without a value', ';scopes', /attribute/],
      ['a stray semicolon', ';', /attribute/],
      ['a hostile 10k scope', `;scopes=${'x'.repeat(10_000)}`, /unknown scope/],
    ])('refuses %s without quoting the entry', (_what, suffix, message) => {
      const secret = 'cb_pasted-by-mistake';
      const { keys, problems } = parseApiKeys(`k:${'d'.repeat(64)}:${secret}${suffix}`, 'API_KEYS');
      expect(keys).toEqual([]);
      expect(problems.join('\n')).toMatch(message);
      expect(problems.join('\n')).not.toContain(secret);
      expect(problems.join('\n')).not.toContain('x'.repeat(20));
    });

    it('reports scopes written with a comma (which splits entries) as a bad entry', () => {
      const { problems } = parseApiKeys(`k:${'d'.repeat(64)};scopes=admin,search:read`, 'API_KEYS');
      expect(problems).toEqual([
        'API_KEYS: entry 2 is not name:sha256hex or name:sha256hex:locA|locB',
      ]);
    });

    it('round-trips scopes through apiKeyLine and refuses unknown ones there', () => {
      const line = apiKeyLine('svc', 'e'.repeat(64), [], ['ingest:write', 'ingest:write']);
      expect(line).toBe(`svc:${'e'.repeat(64)};scopes=ingest:write`);
      expect(parseApiKeys(line, 'x').keys[0].scopes).toEqual(['ingest:write']);
      expect(() => apiKeyLine('svc', 'e'.repeat(64), [], ['root'])).toThrow(/scopes must be/);
      expect(generateApiKey('svc', ['loc'], ['history:delete']).line).toMatch(
        /^svc:[0-9a-f]{64}:loc;scopes=history:delete$/,
      );
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
