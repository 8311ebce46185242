import { readFileSync } from 'node:fs';

import { type Command } from 'commander';

import { generateApiKey, hashApiKey, parseApiKeys } from '../config/api-key-entries';

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

/**
 * `keys new NAME [--locations a,b]`: a fresh random key, printed once, with the entry to put
 * in API_KEYS or API_KEYS_FILE (only its sha256 is ever configured). `keys hash NAME`: the
 * entry for an existing key read from stdin (rotating in a key issued elsewhere).
 * Neither touches the database or the running service.
 */
export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('create API keys and their config entries');

  keys
    .command('new')
    .description('print a new API key (shown once) and its API_KEYS entry')
    .argument('<name>', 'a label for logs and metrics, e.g. voice-agent-prod')
    .option('--locations <uids>', 'bind the key to these location_uids (comma list)')
    .action((name: string, o: { locations?: string }) => {
      const locations = list(o.locations);
      const { key, line } = generateApiKey(name, locations);
      print({ name, key, api_keys_entry: line, locations: locations.length ? locations : null });
      process.stderr.write(
        'Store the key now: it is not shown again and the service keeps only its hash.\n' +
          'Add api_keys_entry to API_KEYS (comma-separated) or as a line of API_KEYS_FILE, then restart.\n',
      );
    });

  keys
    .command('hash')
    .description('read a key from stdin and print its API_KEYS entry')
    .argument('<name>', 'a label for logs and metrics')
    .option('--locations <uids>', 'bind the key to these location_uids (comma list)')
    .action((name: string, o: { locations?: string }) => {
      const key = readFileSync(0, 'utf8').trim();
      if (key.length === 0) {
        throw new Error('no key on stdin');
      }
      const locations = list(o.locations);
      const line = `${name}:${hashApiKey(key)}${locations.length ? `:${locations.join('|')}` : ''}`;
      // The same parser the service uses, so a bad name or location fails here, not at boot.
      const { problems } = parseApiKeys(line, 'entry');
      if (problems.length > 0) {
        throw new Error(problems.join('; '));
      }
      print({ name, api_keys_entry: line, locations: locations.length ? locations : null });
    });
}
