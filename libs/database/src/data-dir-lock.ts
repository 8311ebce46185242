import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

import { ConfigurationError } from '@app/common';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite is a single-process engine: two processes on one data dir corrupt it. A pid lock
 * file turns that into a clear error (a stale lock from a dead process is taken over).
 * Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, '.context-bridge.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw error;
      }
      const holder = Number(readFileSync(path, 'utf8'));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new ConfigurationError(
          `The embedded database in ${dataDir} is in use by process ${holder}. Stop it first, ` +
            `or send the data through its HTTP API (POST /ingest/...) instead.`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new ConfigurationError(`Could not lock the data dir ${dataDir}.`);
}
