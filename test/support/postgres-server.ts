import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

// No `@app/*` imports here: Jest's globalSetup loads this file without the module mapper.

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'pg-test-server.sh');

/**
 * A throwaway Postgres cluster with pgvector (scripts/pg-test-server.sh): for the
 * e2e-postgres project's globalSetup, and for tests that stop and restart a server.
 */
export interface OwnServer {
  url: string;
  halt(): void;
  resume(): void;
  destroy(): void;
}

export function startOwnServer(): OwnServer {
  const [dir, url] = execFileSync('bash', [SCRIPT, 'start'], { encoding: 'utf8' })
    .trim()
    .split(' ');
  const run = (command: string) =>
    execFileSync('bash', [SCRIPT, command, dir], { stdio: 'ignore' });
  return {
    url,
    halt: () => run('halt'),
    resume: () => run('resume'),
    destroy: () => run('destroy'),
  };
}

/**
 * Installs Debian's postgresql-15 and builds pgvector from vendor/ when they are
 * missing (as root; a no-op once installed), so `npm test` on a fresh machine sets itself up.
 */
export function installPostgresIfMissing(): void {
  execFileSync('bash', [SCRIPT, 'install'], { stdio: 'inherit' });
}
