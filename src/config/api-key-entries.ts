import { createHash, randomBytes } from 'node:crypto';

/*
 * API keys as configured (`API_KEYS`, `API_KEYS_FILE`): the entry format, its parser, and the
 * generator the CLI prints entries with. Matching presented keys is auth's (`ApiKeyRing`).
 */

/** One configured API key: a name, the sha256 of the key, and the locations it may touch. */
export interface ApiKeyEntry {
  /** Shown in logs and metrics instead of the key; unique. */
  name: string;
  /** Lowercase hex sha256 of the key. The key itself is never configured nor stored. */
  sha256: string;
  /** `null`: every location (an unbound key). Otherwise only these `location_uid`s. */
  locations: string[] | null;
}

const NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** The same alphabet as `@IsUid()`, so every bindable location can be a request's location. */
const LOCATION = /^[A-Za-z0-9._:@-]{1,128}$/;
/** Location uids may contain `:`, so only the first two colons separate the fields. */
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
): { key: string; line: string } {
  const problem = checkName(name) ?? locations.map(checkLocation).find(Boolean);
  if (problem) {
    throw new Error(problem);
  }
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const bound = locations.length > 0 ? `:${locations.join('|')}` : '';
  return { key, line: `${name}:${hashApiKey(key)}${bound}` };
}

const checkName = (name: string) =>
  NAME.test(name) ? undefined : `key name "${name}" must match ${NAME.source}`;
const checkLocation = (uid: string) =>
  LOCATION.test(uid) ? undefined : `location_uid "${uid}" has invalid characters`;

/**
 * Parses `name:sha256hex` or `name:sha256hex:locA|locB` entries, separated by commas or
 * newlines (a keys file may also hold `#` comment lines). Problems never quote an entry:
 * a mistakenly pasted plain key must not end up in an error log.
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
    const match = ENTRY.exec(entry);
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
    if (problem) {
      problems.push(`${where}: ${problem}`);
      return;
    }
    keys.push({ name, sha256: sha256.toLowerCase(), locations });
  });
  return { keys, problems };
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
