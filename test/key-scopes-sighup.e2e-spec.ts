import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { generateApiKey } from '../src/config/api-key-entries';
import { type AppProcess, startAppProcess } from './support/app-process';
import { waitUntil } from './support/wait';

/**
 * SIGHUP to the real service process (a signal cannot reach an app inside Jest's sandbox):
 * with API_KEYS_FILE it means "read the keys again", where it used to shut the server down.
 */
describe('SIGHUP with API_KEYS_FILE (e2e, own process)', () => {
  const first = generateApiKey('first', [], ['context:read']);
  const second = generateApiKey('second', [], ['context:read']);
  let dir: string;
  let keysFile: string;
  let app: AppProcess;

  const writeKeys = (lines: string[]) => {
    writeFileSync(`${keysFile}.next`, `${lines.join('\n')}\n`);
    renameSync(`${keysFile}.next`, keysFile);
  };
  const status = async (key: { key: string }) =>
    (
      await fetch(`${app.url}/context`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key.key },
        body: JSON.stringify({ transcript: 'where is my order' }),
      })
    ).status;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'key-sighup-'));
    keysFile = join(dir, 'api-keys');
    writeKeys([first.line]);
    app = await startAppProcess(
      { DATA_DIR: 'memory://', EMBEDDING_WORKERS: '1', API_KEYS_FILE: keysFile },
      { readyTimeoutMs: 240_000 },
    );
  }, 300_000);
  afterAll(async () => {
    await app?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-reads the file and keeps serving', async () => {
    expect(await status(first)).toBe(200);
    writeKeys([second.line]);
    process.kill(app.pid, 'SIGHUP');
    await waitUntil('the rotated key', async () => (await status(second)) === 200, 10_000);
    expect(await status(first)).toBe(401);
    expect((await fetch(`${app.url}/health/live`)).status).toBe(200);
    // And again: the process is still there to take a second one.
    writeKeys([first.line]);
    process.kill(app.pid, 'SIGHUP');
    await waitUntil('the first key again', async () => (await status(first)) === 200, 10_000);
  });
});
