import { readFileSync } from 'node:fs';

import { type Command } from 'commander';

import { API_SCOPES, apiKeyLine, generateApiKey, hashApiKey } from '../config/api-key-entries';

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

const SCOPES_HELP = `limit the key to these scopes (comma list of ${API_SCOPES.join(', ')}); default: every scope`;

/**
 * `keys new NAME [--locations a,b] [--scopes s,t]`: a fresh random key, printed once, with
 * the entry to put in API_KEYS or API_KEYS_FILE (only its sha256 is ever configured).
 * `keys hash NAME`: the entry for an existing key read from stdin (rotating in a key issued
 * elsewhere). Neither touches the database or the running service.
 */
export function registerKeyCommands(program: Command): void {
  const keys = program.command('keys').description('create API keys and their config entries');

  keys
    .command('new')
    .description('print a new API key (shown once) and its API_KEYS entry')
    .argument('<name>', 'a label for logs and metrics, e.g. voice-agent-prod')
    .option('--locations <uids>', 'bind the key to these location_uids (comma list)')
    .option('--scopes <scopes>', SCOPES_HELP)
    .action((name: string, o: { locations?: string; scopes?: string }) => {
      const locations = list(o.locations);
      const scopes = list(o.scopes);
      const { key, line } = generateApiKey(name, locations, scopes);
      print({ name, key, api_keys_entry: line, ...described(locations, scopes) });
      process.stderr.write(
        'Store the key now: it is not shown again and the service keeps only its hash.\n' +
          'Add api_keys_entry as a line of API_KEYS_FILE (read again within a second, no restart) ' +
          'or to API_KEYS (comma-separated; needs a restart).\n',
      );
    });

  keys
    .command('hash')
    .description('read a key from stdin and print its API_KEYS entry')
    .argument('<name>', 'a label for logs and metrics')
    .option('--locations <uids>', 'bind the key to these location_uids (comma list)')
    .option('--scopes <scopes>', SCOPES_HELP)
    .action((name: string, o: { locations?: string; scopes?: string }) => {
      const key = readFileSync(0, 'utf8').trim();
      if (key.length === 0) {
        throw new Error('no key on stdin');
      }
      const locations = list(o.locations);
      const scopes = list(o.scopes);
      // Checked as the service's parser checks, so a bad entry fails here, not at boot.
      const line = apiKeyLine(name, hashApiKey(key), locations, scopes);
      print({ name, api_keys_entry: line, ...described(locations, scopes) });
    });
}

const described = (locations: string[], scopes: string[]) => ({
  locations: locations.length ? locations : null,
  scopes: scopes.length ? [...new Set(scopes)] : null,
});
