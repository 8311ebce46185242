import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Database } from '@app/database';

import { generateApiKey } from '../src/config/api-key-entries';
import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { type FakePodium, podiumApiEnv, startFakePodium } from './fakes/podium-server';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { HISTORY } from './support/auth-fixtures';
import { seedDataDir } from './support/pglite-data-dir';

const ROOT = join(__dirname, '..');
const DIMENSION = 32;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI (`bin/context-bridge.js`) with exactly `env` (nothing of the test's own). */
function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['bin/context-bridge.js', ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, LOG_LEVEL: 'error', ...env }, timeout: 180_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/**
 * Operator commands beside a running service (issue 39 item 4): a one-off command must not
 * do the server's background work (drain the webhook inbox, refresh Podium's token), says
 * its version without booting, and can ask a running server instead of opening a database.
 */
describe('npx context-bridge: admin commands beside a running service', () => {
  let root: string;
  let openai: FakeOpenAi;
  let podium: FakePodium;
  let embedderEnv: Record<string, string>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'cb-cli-admin-'));
    openai = await startFakeOpenAi({ dimension: DIMENSION });
    podium = await startFakePodium({ rotateRefreshTokens: true });
    embedderEnv = {
      EMBEDDING_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.baseURL,
      EMBEDDING_DIMENSION: String(DIMENSION),
    };
  });
  afterAll(async () => {
    await openai?.close();
    await podium?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const run = await cli(['--version'], {});
    expect(run).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  it('leaves a pending webhook event and the Podium token to the server', async () => {
    const dataDir = seedDataDir(join(root, 'inbox'));
    // A delivery the server accepted and has not processed yet, and one processed long ago
    // (the server's worker purges it: its first drain starts with that purge).
    const database = new Database({ dataDir });
    await database.open(DIMENSION);
    await database.execute(
      `INSERT INTO podium_webhook_events (event_id, type, payload) VALUES ($1, $2, $3::jsonb)`,
      ['evt_pending', 'contact.updated', JSON.stringify({ data: { uid: 'ctc_x' } })],
    );
    await database.execute(
      `INSERT INTO podium_webhook_events (event_id, type, payload, received_at, processed_at)
       VALUES ('evt_old', 'contact.updated', '{}'::jsonb, now() - interval '30 days',
               now() - interval '30 days')`,
    );
    // A rebuild a crashed forget left listed: the server's purge finishes it at start-up.
    await database.execute(
      `INSERT INTO history_rebuilds (contact_uid, conversation_uid) VALUES ('ctc_x', 'conv_x')`,
    );
    await database.close();
    const env = { ...embedderEnv, ...podiumApiEnv(podium), DATA_DIR: dataDir };

    // A query command that looks a contact up, then an admin one.
    const context = await cli(
      ['context', '--transcript', 'where is my order', '--contact-uid', 'pat@example.com'],
      { ...env, LOG_LEVEL: 'info' },
    );
    expect(context.code).toBe(0);
    expect(context.stderr).toMatch(/never refreshes the Podium token/);
    expect(context.stderr).toMatch(/embedder ready/); // the log level lets boot lines through
    expect(context.stderr).not.toMatch(/hot paths warmed|warm-up skipped/); // no warm-up
    const reindex = await cli(['reindex'], env);
    expect(reindex.code).toBe(0);

    // Not one token request: a refresh here would rotate the token the server holds.
    expect(podium.tokenRequests).toBe(0);
    const after = new Database({ dataDir });
    await after.open(DIMENSION);
    try {
      expect(await after.query(`SELECT conversation_uid FROM history_rebuilds`)).toEqual([
        { conversation_uid: 'conv_x' },
      ]);
      const rows = await after.query(
        `SELECT event_id, attempts, locked_until, processed_at IS NOT NULL AS processed,
                failed_at FROM podium_webhook_events ORDER BY event_id`,
      );
      expect(rows).toEqual([
        { event_id: 'evt_old', attempts: 0, locked_until: null, processed: true, failed_at: null },
        {
          event_id: 'evt_pending',
          attempts: 0,
          locked_until: null,
          processed: false,
          failed_at: null,
        },
      ]);
    } finally {
      await after.close();
    }
  }, 300_000); // two CLI processes, each booting the service, on a shared box

  describe('--url: a running server instead of the database', () => {
    let t: TestApp;
    const searcher = generateApiKey('searcher', [], ['search:read']);
    // Opening this would fail: --url must not touch a database at all.
    const noDatabase = { DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' };

    beforeAll(async () => {
      const ops = generateApiKey('ops');
      t = await bootTestApp({ API_KEYS: [ops.line, searcher.line].join(',') });
      const ingest = await postJson(`${t.url}/ingest/conversations`, HISTORY, {
        'x-api-key': ops.key,
      });
      expect(ingest.status).toBe(200);
    });
    afterAll(() => t?.close());

    it('search answers what POST /search answers, with the key from the environment', async () => {
      const request = { query: 'espresso machine leaks', contact_uid: 'ctc_a1', top_k: 3 };
      const http = await postJson(`${t.url}/search`, request, { 'x-api-key': searcher.key });
      const run = await cli(
        [
          'search',
          '--url',
          t.url,
          '--query',
          request.query,
          '--contact-uid',
          'ctc_a1',
          '--top-k',
          '3',
        ],
        { ...noDatabase, CONTEXT_BRIDGE_API_KEY: searcher.key },
      );
      expect(run.code).toBe(0);
      const printed = JSON.parse(run.stdout) as { hits: Array<{ id: string }> };
      expect(printed.hits.map((h) => h.id)).toEqual(
        (http.body as { hits: Array<{ id: string }> }).hits.map((h) => h.id),
      );
      expect(printed.hits.length).toBeGreaterThan(0);
    });

    it("reports the server's problem (a key without the scope) and exits 1", async () => {
      const run = await cli(
        ['context', '--url', t.url, '--api-key', searcher.key, '--transcript', 'hello'],
        noDatabase,
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/HTTP 403 insufficient_scope/);
      expect(run.stderr).not.toContain(searcher.key);
    });

    it('refuses a --url that is not an http(s) base before any request', async () => {
      const run = await cli(['search', '--url', 'ftp://example.com', '--query', 'x'], noDatabase);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/--url.*must be an http\(s\) URL/);
    });
  });
});
