import { generateApiKey, hashApiKey } from './api-key-entries';
import { LEGACY_VAPI_SECRET_NAME, readVapiSecrets } from './vapi-secrets-config';

const boundKey = generateApiKey('tenant-a', ['loc_a']);
const unboundKey = generateApiKey('ops');
const assistantA = generateApiKey('assistant-a', ['loc_a']);
const LEGACY = 'legacy-vapi-secret-0123456789';

const keysOf = (...lines: string[]) =>
  lines.map((line) => {
    const [name, sha256, bound] = line.split(':');
    return { name, sha256, locations: bound ? bound.split('|') : null };
  });

describe('readVapiSecrets', () => {
  it('reads VAPI_SECRETS in the API_KEYS format, each secret bound to its locations', () => {
    const sut = readVapiSecrets({ VAPI_SECRETS: assistantA.line }, keysOf(boundKey.line));
    expect(sut).toEqual({
      secrets: [{ name: 'assistant-a', sha256: hashApiKey(assistantA.key), locations: ['loc_a'] }],
      problems: [],
    });
  });

  it('refuses the unbound legacy VAPI_SECRET once any API key is bound to locations', () => {
    const sut = readVapiSecrets({ VAPI_SECRET: LEGACY }, keysOf(boundKey.line, unboundKey.line));
    expect(sut.problems).toEqual([expect.stringMatching(/^VAPI_SECRET: .*VAPI_SECRETS/)]);
    expect(sut.problems.join()).not.toContain(LEGACY);
  });

  it('refuses an unbound VAPI_SECRETS entry next to bound ones', () => {
    const open = generateApiKey('assistant-open');
    const sut = readVapiSecrets({ VAPI_SECRETS: `${assistantA.line},${open.line}` }, []);
    expect(sut.problems).toEqual([
      expect.stringMatching(/"assistant-open" is bound to no location/),
    ]);
  });

  it('refuses scopes on a Vapi secret (they would limit nothing)', () => {
    const scoped = generateApiKey('assistant-b', ['loc_b'], ['context:read']);
    const sut = readVapiSecrets({ VAPI_SECRETS: scoped.line }, []);
    expect(sut.problems).toEqual([
      'VAPI_SECRETS: "assistant-b" has ;scopes=, which Vapi secrets do not take',
    ]);
  });

  it('keeps the legacy secret as one unbound entry in a single-tenant deployment', () => {
    const sut = readVapiSecrets({ VAPI_SECRET: LEGACY }, keysOf(unboundKey.line));
    expect(sut).toEqual({
      secrets: [{ name: LEGACY_VAPI_SECRET_NAME, sha256: hashApiKey(LEGACY), locations: null }],
      problems: [],
    });
  });

  it('reports malformed entries, plain secrets and duplicates without quoting them', () => {
    const sut = readVapiSecrets(
      { VAPI_SECRETS: `cb_plain-secret-value,not-an-entry,${assistantA.line},${assistantA.line}` },
      [],
    );
    expect(sut.problems).toEqual([
      expect.stringMatching(/^VAPI_SECRETS: entry 1 looks like a plain key/),
      expect.stringMatching(/^VAPI_SECRETS: entry 2 is not name:sha256hex/),
      'VAPI_SECRETS: key name "assistant-a" is configured twice',
      'VAPI_SECRETS: key "assistant-a" has the same hash as another key',
    ]);
    expect(sut.problems.join()).not.toMatch(/plain-secret-value|not-an-entry/);
  });
});
