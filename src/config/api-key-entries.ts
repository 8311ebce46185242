import { createHash, randomBytes } from 'node:crypto';

/*
 * API keys as configured (`API_KEYS`, `API_KEYS_FILE`): the entry format, its parser, and the
 * generator the CLI prints entries with. Matching presented keys is auth's (`ApiKeyRing`).
 */

/**
 * What a key may do (docs/security.md maps every route to one). `admin` includes all the
 * others; a key configured without scopes has every scope, as keys did before scopes.
 */
export const API_SCOPES = [
  'context:read',
  'search:read',
  'ingest:write',
  'history:delete',
  'admin',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** One configured API key: a name, the sha256 of the key, and the locations it may touch. */
export interface ApiKeyEntry {
  /** Shown in logs and metrics instead of the key; unique. */
  name: string;
  /** Lowercase hex sha256 of the key. The key itself is never configured nor stored. */
  sha256: string;
  /** `null`: every location (an unbound key). Otherwise only these `location_uid`s. */
  locations: string[] | null;
  /** Absent: every scope (an entry written without `;scopes=`). Never empty. */
  scopes?: ApiScope[];
}

const NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** The same alphabet as `@IsUid()`, so every bindable location can be a request's location. */
const LOCATION = /^[A-Za-z0-9._:@-]{1,128}$/;
/**
 * Location uids may contain `:`, so only the first two colons separate the fields; `;`
 * (in no field's alphabet) starts the attributes, e.g. `;scopes=context:read|search:read`.
 */
const ENTRY = /^([^:]*):([0-9a-fA-F]{64})(?::(.*))?$/;
/** Prefix of generated keys: makes a leaked key easy to recognise in secret scanners. */
export const API_KEY_PREFIX = 'cb_';

/** Lowercase hex sha256 of a key, as configured in `API_KEYS`. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A new random key (256 bits) and the config line that admits it. */
export function generateApiKey(
  name: string,
  locations: string[] = [],
  scopes: string[] = [],
): { key: string; line: string } {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { key, line: apiKeyLine(name, hashApiKey(key), locations, scopes) };
}

/**
 * The config line of a key by its hash (`name:sha256[:locA|locB][;scopes=a|b]`); throws
 * what the parser would refuse, so a bad entry fails when printed, not at boot.
 */
export function apiKeyLine(
  name: string,
  sha256: string,
  locations: string[] = [],
  scopes: string[] = [],
): string {
  const problem =
    checkName(name) ??
    locations.map(checkLocation).find(Boolean) ??
    (scopes.some((scope) => !isScope(scope))
      ? `scopes must be among ${API_SCOPES.join(', ')}`
      : undefined);
  if (problem) {
    throw new Error(problem);
  }
  const bound = locations.length > 0 ? `:${locations.join('|')}` : '';
  const scoped = scopes.length > 0 ? `;scopes=${[...new Set(scopes)].join('|')}` : '';
  return `${name}:${sha256}${bound}${scoped}`;
}

const isScope = (value: string): value is ApiScope =>
  (API_SCOPES as readonly string[]).includes(value);

const checkName = (name: string) =>
  NAME.test(name) ? undefined : `key name "${name}" must match ${NAME.source}`;
const checkLocation = (uid: string) =>
  LOCATION.test(uid) ? undefined : `location_uid "${uid}" has invalid characters`;

/**
 * Parses `name:sha256hex` or `name:sha256hex:locA|locB` entries, each optionally followed
 * by `;scopes=scopeA|scopeB`, separated by commas or newlines (a keys file may also hold
 * `#` comment lines). Problems never quote an entry: a mistakenly pasted plain key must
 * not end up in an error log.
 */
export function parseApiKeys(
  text: string | undefined,
  source: string,
): { keys: ApiKeyEntry[]; problems: string[] } {
  const keys: ApiKeyEntry[] = [];
  const problems: string[] = [];
  const entries = (text ?? '')
    .split(/\r?\n/)
    .filter((line) => !line.trim().startsWith('#'))
    .flatMap((line) => line.split(','))
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0);
  entries.forEach((entry, i) => {
    const where = `${source}: entry ${i + 1}`;
    const [head, ...attributes] = entry.split(';');
    const match = ENTRY.exec(head.trim());
    if (!match) {
      problems.push(
        entry.startsWith(API_KEY_PREFIX)
          ? `${where} looks like a plain key; configure its sha256 instead (npx context-bridge keys hash)`
          : `${where} is not name:sha256hex or name:sha256hex:locA|locB`,
      );
      return;
    }
    const [, name, sha256, bound] = match;
    const locations = bound === undefined ? null : bound.split('|').map((l) => l.trim());
    const problem =
      checkName(name) ??
      (locations?.some((l) => l.length === 0)
        ? 'has an empty location_uid'
        : locations?.map(checkLocation).find(Boolean));
    const scopes = parseAttributes(attributes);
    const failure = problem ?? (typeof scopes === 'string' ? scopes : undefined);
    if (failure) {
      problems.push(`${where}: ${failure}`);
      return;
    }
    keys.push({
      name,
      sha256: sha256.toLowerCase(),
      locations,
      ...(Array.isArray(scopes) ? { scopes } : {}),
    });
  });
  return { keys, problems };
}

/**
 * An entry's `;key=value` attributes; only `scopes` exists. The scopes, `undefined` when
 * none is written, or a problem (which never quotes the value).
 */
function parseAttributes(attributes: string[]): ApiScope[] | string | undefined {
  let scopes: ApiScope[] | undefined;
  for (const attribute of attributes) {
    const [key, value] = attribute.split(/=(.*)/s, 2).map((part) => part.trim());
    if (key !== 'scopes' || value === undefined) {
      return 'has an attribute other than ;scopes=a|b';
    }
    if (scopes) {
      return 'sets scopes twice';
    }
    const listed = value.split('|').map((scope) => scope.trim());
    if (value.length === 0 || listed.some((scope) => !isScope(scope))) {
      return `has an empty or unknown scope (known: ${API_SCOPES.join(', ')})`;
    }
    scopes = [...new Set(listed as ApiScope[])];
  }
  return scopes;
}

/** Names and hashes must be unique across every source. */
export function duplicateKeyProblems(keys: ApiKeyEntry[], source = 'API_KEYS'): string[] {
  const problems: string[] = [];
  const names = new Set<string>();
  const hashes = new Set<string>();
  for (const key of keys) {
    if (names.has(key.name)) {
      problems.push(`${source}: key name "${key.name}" is configured twice`);
    }
    if (hashes.has(key.sha256)) {
      problems.push(`${source}: key "${key.name}" has the same hash as another key`);
    }
    names.add(key.name);
    hashes.add(key.sha256);
  }
  return problems;
}
