import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { Database } from '@app/database';
import { PgVectorStore } from '@app/vector';

import { type ContextBundle } from '../src/context/context.dto';
import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { bootTestApp } from './support/app';
import { seededTempDataDir } from './support/pglite-data-dir';

describe('boot-time checks (e2e)', () => {
  it('lists every invalid variable in one error and exits non-zero', () => {
    const result = spawnSync(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
      cwd: join(__dirname, '..'),
      env: {
        PATH: process.env.PATH,
        PORT: 'eighty',
        EMBEDDING_PROVIDER: 'word2vec',
        DATABASE_URL: 'not a url',
        LOG_LEVEL: 'loud',
        VECTOR_PROVIDER: 'qdrant',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Invalid environment (5 problem(s))');
    for (const name of ['PORT', 'EMBEDDING_PROVIDER', 'DATABASE_URL', 'LOG_LEVEL', 'QDRANT_URL']) {
      expect(result.stderr).toMatch(new RegExp(`- ${name}: `));
    }
  });

  it('refuses to boot production on demo providers named explicitly and names what to set', () => {
    const result = spawnSync(process.execPath, ['-r', '@swc-node/register', 'src/main.ts'], {
      cwd: join(__dirname, '..'),
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        API_KEYS: `ops:${'a'.repeat(64)}`,
        PODIUM_PROVIDER: 'local',
        CURRICULUM_PROVIDER: 'local',
      },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(result.status).toBe(1);
    // An explicit local CRM is checked at boot for imported contacts (contacts-import e2e).
    expect(result.stderr).toContain('Invalid environment (1 problem(s))');
    expect(result.stderr).toMatch(/- CURRICULUM_PROVIDER: .*CURRICULUM_PROVIDER=pocketbase/);
    expect(result.stderr).toContain('ALLOW_DEMO_PROVIDERS=true');
  });

  it('the CLI ingests a file, searches it and explains a bundle with the service’s own code', () => {
    // An empty initdb'd cluster: the CLI still creates the extension and runs every migration.
    const dataDir = seededTempDataDir('cb-cli-');
    const file = join(dataDir, 'messages.ndjson');
    const lines = [
      {
        conversation_uid: 'c1',
        contact_uid: 'ctc_cli',
        channel: 'sms',
        occurred_at: '2026-01-01T10:00:00Z',
        sender: 'customer',
        text: 'My kayak paddle snapped on the first trip.',
      },
      {
        conversation_uid: 'c1',
        contact_uid: 'ctc_cli',
        channel: 'sms',
        occurred_at: '2026-01-01T10:01:00Z',
        sender: 'agent',
        text: 'We will send a new paddle under warranty.',
      },
      { conversation_uid: 'c2', contact_uid: 'ctc_cli', occurred_at: 'not a date' },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['bin/context-bridge.js', ...args], {
        cwd: join(__dirname, '..'),
        env: {
          PATH: process.env.PATH,
          DATA_DIR: dataDir,
          EMBEDDING_WORKERS: '1',
          LOG_LEVEL: 'silent',
        },
        encoding: 'utf8',
        timeout: 120_000,
      });
    try {
      const ingest = cli('ingest', 'conversations', file);
      expect(ingest.status).toBe(2); // one record failed
      expect(JSON.parse(ingest.stdout)).toMatchObject({
        received: 3,
        inserted: 1,
        skipped: 0,
        failed: [{ index: 2 }],
      });
      const search = cli('search', '--query', 'broken paddle', '--contact-uid', 'ctc_cli');
      expect(search.status).toBe(0);
      expect(JSON.parse(search.stdout).hits[0].content).toContain('kayak paddle snapped');
      const explained = cli(
        'explain',
        '--transcript',
        'my paddle broke, mail me at kim@example.net',
        '--contact-uid',
        'ctc_cli',
        '--pool-k',
        '5',
        '--final-k',
        '2',
        // The fusion components are skipped past the deadline; a loaded box's cold first
        // build can pass the default 800 ms, and the components are what this asserts.
        '--timeout-ms',
        '5000',
      );
      expect(explained.status).toBe(0);
      const bundle = JSON.parse(explained.stdout) as ContextBundle;
      expect(bundle.explain?.pool_k).toBe(5);
      expect(bundle.explain?.candidates[0]).toMatchObject({ outcome: 'kept', in_bundle: true });
      expect(bundle.explain?.candidates[0].components).toHaveProperty('overlap');
      expect(JSON.stringify(bundle.explain)).not.toContain('kim@example.net');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('vector dimension', () => {
    let dataDir: string;
    let openai: FakeOpenAi;

    beforeAll(async () => {
      dataDir = seededTempDataDir('cb-dim-');
      openai = await startFakeOpenAi();
      // A store built for the local 512-d model...
      const database = new Database({ dataDir });
      await new PgVectorStore(database).init(512);
      await database.close();
    });
    afterAll(async () => {
      await openai.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('refuses to boot a 1536-d embedder on a 512-d store, saying what to do', async () => {
      const boot = bootTestApp({
        DATA_DIR: dataDir,
        EMBEDDING_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: openai.baseURL,
      });
      await expect(boot).rejects.toThrow(
        /dimension mismatch: the store holds 512-d vectors but the embedder produces 1536-d.*re-ingest/i,
      );
    });
  });
});
