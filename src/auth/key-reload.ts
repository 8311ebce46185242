import { type ApiKeyEntry, duplicateKeyProblems, parseApiKeys } from '../config/api-key-entries';
import { type AppConfig } from '../config/app-config';
import { type KeysFileRead } from './api-keys-file';

export type KeyReload =
  { problems: string[] } | { keys: ApiKeyEntry[]; changed: boolean; summary: string };

/**
 * The keys after API_KEYS_FILE changed to `read`: API_KEYS's fixed entries plus the file's,
 * checked as the boot checks them, or the problems that keep the keys in use. Two more
 * refusals than at boot: a reload never turns keys off (an emptied file would open the
 * service), and never binds a key to locations beside an unbound Vapi secret (which the
 * boot refuses: that secret would read every tenant).
 */
export function nextKeys(
  current: readonly ApiKeyEntry[],
  fixedKeys: readonly ApiKeyEntry[],
  read: KeysFileRead,
  adapters: AppConfig['adapters'],
): KeyReload {
  if ('problem' in read) {
    return { problems: [read.problem] };
  }
  const parsed = parseApiKeys(read.text, 'API_KEYS_FILE');
  const keys = [...fixedKeys, ...parsed.keys];
  const problems = [...parsed.problems, ...duplicateKeyProblems(keys, 'API_KEYS_FILE')];
  if (problems.length === 0 && keys.length === 0 && current.length > 0) {
    problems.push('it holds no key and API_KEYS none: the service would run open');
  }
  const unboundVapi = adapters.vapiSecrets.some((secret) => secret.locations === null);
  if (unboundVapi && keys.some((key) => key.locations !== null)) {
    problems.push(
      'a key is bound to locations while a Vapi secret is not (see VAPI_SECRETS): that secret would read every tenant',
    );
  }
  if (problems.length > 0) {
    return { problems };
  }
  const before = new Map(current.map((key) => [key.name, signature(key)]));
  const after = new Map(keys.map((key) => [key.name, signature(key)]));
  const added = [...after.keys()].filter((name) => !before.has(name));
  const removed = [...before.keys()].filter((name) => !after.has(name));
  const modified = [...after].filter(([name, sig]) => before.has(name) && before.get(name) !== sig);
  const changed = added.length + removed.length + modified.length > 0;
  // Names only: they label keys in logs and metrics already; hashes and keys never appear.
  const list = (label: string, names: string[]) =>
    names.length ? [`${label} ${names.join(', ')}`] : [];
  const summary = [
    `${keys.length} key(s)`,
    ...list('added', added),
    ...list('removed', removed),
    ...list(
      'changed',
      modified.map(([name]) => name),
    ),
  ].join('; ');
  return { keys, changed, summary };
}

const signature = (key: ApiKeyEntry) =>
  JSON.stringify([key.sha256, key.locations, key.scopes ?? null]);
