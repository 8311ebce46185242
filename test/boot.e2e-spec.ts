import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Database } from '@app/database';
import { PgVectorStore } from '@app/vector';

import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { bootTestApp } from './support/app';

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

  describe('vector dimension', () => {
    let dataDir: string;
    let openai: FakeOpenAi;

    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'cb-dim-'));
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
