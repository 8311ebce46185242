import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Logger } from '@nestjs/common';

import { generateApiKey } from '../src/config/api-key-entries';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { HISTORY } from './support/auth-fixtures';
import { waitUntil } from './support/wait';

/** Scoped keys (issue 39 item 6) and API_KEYS_FILE followed without a restart. */
const reader = generateApiKey('voice-agent', [], ['context:read']);
const searcher = generateApiKey('searcher', [], ['search:read']);
const loader = generateApiKey('loader', [], ['ingest:write']);
const admin = generateApiKey('ops', [], ['admin']);
const legacy = generateApiKey('legacy'); // written before scopes: every scope
const fromEnv = generateApiKey('from-env', [], ['context:read']);

type Problem = { error: string; required_scope?: string; details?: Record<string, unknown> };

describe('scoped API keys and key-file rotation (e2e)', () => {
  let t: TestApp;
  let dir: string;
  let keysFile: string;

  /** Replaces the file as operators and Kubernetes do: a new file renamed over the old one. */
  const writeKeys = (lines: string[]) => {
    const next = `${keysFile}.next`;
    writeFileSync(next, `# keys\n${lines.join('\n')}\n`);
    renameSync(next, keysFile);
  };
  const as = (key: { key: string }) => ({ authorization: `Bearer ${key.key}` });
  const call = async (method: string, path: string, key: { key: string }, body?: unknown) => {
    const response = await fetch(`${t.url}${path}`, {
      method,
      headers: {
        ...as(key),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        accept: 'application/json, text/event-stream',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text ? JSON.parse(text) : undefined) as Problem,
      challenge: response.headers.get('www-authenticate'),
    };
  };
  const context = (key: { key: string }) =>
    call('POST', '/context', key, { transcript: 'espresso machine leaks', contact_uid: 'ctc_a1' });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'key-scopes-'));
    keysFile = join(dir, 'api-keys');
    writeKeys([reader, searcher, loader, admin, legacy].map((k) => k.line));
    t = await bootTestApp({ API_KEYS_FILE: keysFile, API_KEYS: fromEnv.line });
    expect((await call('POST', '/ingest/conversations', loader, HISTORY)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('scopes', () => {
    const FORBIDDEN_FOR_READER: Array<[string, string, unknown, string]> = [
      ['POST', '/ingest/conversations', HISTORY.slice(0, 1), 'ingest:write'],
      ['POST', '/ingest/kb', [], 'ingest:write'],
      ['POST', '/contacts/forget', { contact_uid: 'ctc_a1' }, 'history:delete'],
      ['DELETE', '/contacts/ctc_a1/history', undefined, 'history:delete'],
      ['GET', '/contacts/forget/receipts/rcpt_x', undefined, 'history:delete'],
      ['POST', '/search', { query: 'espresso' }, 'search:read'],
      ['POST', '/v1/vector_stores/ctc_a1/search', { query: 'espresso' }, 'search:read'],
      ['GET', '/contacts', undefined, 'admin'],
    ];

    it('a context:read key reads bundles (200) and gets 403 insufficient_scope elsewhere', async () => {
      expect((await context(reader)).status).toBe(200);
      for (const [method, path, body, scope] of FORBIDDEN_FOR_READER) {
        const res = await call(method, path, reader, body);
        expect({ path, status: res.status, error: res.body.error }).toEqual({
          path,
          status: 403,
          error: 'insufficient_scope',
        });
        expect(res.body.details).toEqual({ required_scope: scope });
        expect(res.challenge).toBe(
          `Bearer realm="context-bridge", error="insufficient_scope", scope="${scope}"`,
        );
      }
      // The forget never ran: the history is still there for a key that may read it.
      const search = await call('POST', '/search', searcher, {
        query: 'espresso machine',
        contact_uid: 'ctc_a1',
      });
      expect(search.status).toBe(200);
      expect((search.body as unknown as { hits: unknown[] }).hits.length).toBeGreaterThan(0);
    });

    it('other scopes open only their own routes; MCP and /relevance need context:read', async () => {
      expect((await context(loader)).status).toBe(403);
      expect((await context(searcher)).status).toBe(403);
      const mcp = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
      expect((await call('POST', '/mcp', loader, mcp)).body.error).toBe('insufficient_scope');
      expect((await call('POST', '/mcp', reader, mcp)).status).toBe(200);
      const relevance = { query: 'refund', candidate: 'refunds within 30 days' };
      expect((await call('POST', '/relevance', searcher, relevance)).status).toBe(403);
      expect((await call('POST', '/relevance', reader, relevance)).status).toBe(200);
      expect((await call('POST', '/calls', loader, {})).body.error).toBe('insufficient_scope');
    });

    it('the Vapi route (public for the key guard) still checks the scope of a presented key', async () => {
      const vapi = {
        message: {
          type: 'knowledge-base-request',
          messagesOpenAIFormatted: [{ role: 'user', content: 'my espresso machine leaks' }],
        },
      };
      const refused = await call('POST', '/adapters/vapi/knowledge-base', loader, vapi);
      expect({ status: refused.status, error: refused.body.error }).toEqual({
        status: 403,
        error: 'insufficient_scope',
      });
      expect((await call('POST', '/adapters/vapi/knowledge-base', reader, vapi)).status).toBe(200);
    });

    it('admin and unscoped (pre-scope) keys keep every route', async () => {
      for (const key of [admin, legacy]) {
        expect((await context(key)).status).toBe(200);
        expect((await call('GET', '/contacts', key)).status).toBe(200);
        expect((await call('DELETE', '/contacts/ctc_nobody/history', key)).status).toBe(200);
      }
    });

    it('checks the key before the scope: a wrong key is still 401', async () => {
      const res = await postJson(`${t.url}/ingest/kb`, [], { 'x-api-key': 'cb_wrong' });
      expect(res.status).toBe(401);
    });
  });

  describe('API_KEYS_FILE rotation', () => {
    it('drops a removed key and admits a new one without a restart', async () => {
      const rotated = generateApiKey('voice-agent-2', [], ['context:read']);
      expect((await context(rotated)).status).toBe(401);
      writeKeys([rotated, searcher, loader, admin, legacy].map((k) => k.line));
      // Eventually, bounded: the service follows the file (watch, 500 ms poll), no restart.
      await waitUntil(
        'the removed key to be refused',
        async () => {
          return (await context(reader)).status === 401;
        },
        5_000,
      );
      expect((await context(rotated)).status).toBe(200);
      expect((await context(fromEnv)).status).toBe(200); // API_KEYS entries stay
    });

    it('keeps the keys in use when the new file is malformed, and logs why without key material', async () => {
      const errors = jest.spyOn(Logger.prototype, 'error');
      try {
        const stranger = generateApiKey('stranger');
        writeKeys([stranger.line, `${legacy.line};scopes=superuser`, legacy.key]);
        const loggedErrors = () => errors.mock.calls.map((args) => String(args[0])).join('\n');
        // Once the write has settled (a file still being written is read again later).
        await waitUntil(
          'the malformed file to be refused',
          () => Promise.resolve(loggedErrors().includes('API_KEYS_FILE not applied')),
          5_000,
        );
        expect((await context(admin)).status).toBe(200);
        expect((await context(stranger)).status).toBe(401);
        const logged = loggedErrors();
        expect(logged).toMatch(/API_KEYS_FILE not applied.*unknown scope.*plain key/s);
        expect(logged).not.toContain(legacy.key);
        expect(logged).not.toMatch(/[0-9a-f]{64}/);
      } finally {
        errors.mockRestore();
      }
    });
  });
});
