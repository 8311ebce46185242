import { ConfigurationError } from '@app/common';
import { Database, type DatabaseOptions } from '@app/database';

import { type FakeOpenAi, startFakeOpenAi } from './fakes/openai-server';
import { bootTestApp } from './support/app';
import { persistentEngineEnv, TEST_ENGINE } from './support/postgres';

const A = { provider: 'openai', model: 'text-embedding-3-small' };
const DIMENSION = 8;

/**
 * The store records which embedding model wrote it (migration 18) and refuses a boot with
 * another model id or dimension, naming the command that moves it (issue 39).
 */
describe(`the store's embedding model record on ${TEST_ENGINE}`, () => {
  let options: DatabaseOptions;
  let release: () => Promise<void>;

  /** A new store (a data dir on disk on PGlite: each one is an initdb and every migration). */
  const newStore = async () => {
    const engine = await persistentEngineEnv();
    release = engine.release;
    options = {
      dataDir: engine.env.DATA_DIR ?? 'memory://',
      databaseUrl: engine.env.DATABASE_URL,
    };
  };

  /** Opens the store with `model`, runs `work` on it, and closes it whatever happens. */
  async function withStore<T>(
    dimension: number,
    model: { provider: string; model: string } | undefined,
    work: (db: Database) => Promise<T> = () => Promise.resolve(undefined as T),
  ): Promise<T> {
    const db = new Database(options);
    try {
      await db.open(dimension, model);
      return await work(db);
    } finally {
      await db.close();
    }
  }
  const record = (db: Database) =>
    db.query('SELECT provider, model, dimension FROM embedding_model');

  // The store model A wrote on its first open (in beforeAll): a refused open changes nothing
  // in it and an accepted one keeps A's record (the last test reads it after the refusals),
  // so these share it: one new store, not four (each is an initdb on PGlite).
  describe('on a store model A wrote', () => {
    beforeAll(async () => {
      await newStore();
      await withStore(DIMENSION, A);
    });
    afterAll(() => release());

    it('is written on first open and accepted by the same model', async () => {
      await expect(withStore(DIMENSION, A, record)).resolves.toEqual([
        { ...A, dimension: DIMENSION },
      ]);
    });

    it('refuses another model of the same dimension, saying how to move', async () => {
      const opening = withStore(DIMENSION, { provider: 'openai', model: 'other-model' });
      await expect(opening).rejects.toBeInstanceOf(ConfigurationError);
      await expect(opening).rejects.toThrow(
        'the store was written by openai/text-embedding-3-small (8-d), but the service is ' +
          'configured for openai/other-model (8-d)',
      );
      await expect(opening).rejects.toThrow('a new database and re-ingest');
      await expect(opening).rejects.toThrow('`npx context-bridge reembed --model <id>');
    });

    it('refuses another dimension with the stored model named', async () => {
      const opening = withStore(16, { provider: 'openai', model: 'text-embedding-3-large' });
      await expect(opening).rejects.toThrow(
        /written by openai\/text-embedding-3-small \(8-d\).*text-embedding-3-large \(16-d\).*re-ingest/,
      );
    });

    it('a provider change serving the same model is accepted', async () => {
      await expect(
        withStore(DIMENSION, { provider: 'tei', model: A.model }, record),
      ).resolves.toEqual([{ ...A, dimension: DIMENSION }]);
    });
  });

  describe('on a new store each', () => {
    beforeEach(() => newStore());
    afterEach(() => release());

    it('records a store from before the record with the model it next opens with', async () => {
      // An upgraded store: migrated and filled, but opened without a model until now.
      await withStore(DIMENSION, undefined, async (db) => {
        await db.exec('DELETE FROM embedding_model');
      });
      await withStore(DIMENSION, A);
      await expect(withStore(DIMENSION, undefined, record)).resolves.toEqual([
        { ...A, dimension: DIMENSION },
      ]);
      await expect(withStore(DIMENSION, { provider: 'tei', model: 'bge' })).rejects.toThrow(
        /written by openai\/text-embedding-3-small/,
      );
    });

    it('refuses a dimension no HNSW index takes before building anything', async () => {
      for (const dimension of [4001, 0, 1.5]) {
        await expect(withStore(dimension, A)).rejects.toThrow(
          `The embedder produces ${dimension}-d vectors; pgvector's HNSW indexes 1 to 4000`,
        );
      }
      await expect(withStore(DIMENSION, undefined, record)).resolves.toEqual([]);
    });

    it('hostile model ids: an overlong one is refused and nothing is recorded; quotes are data', async () => {
      await expect(
        withStore(DIMENSION, { provider: 'tei', model: 'x'.repeat(10_000) }),
      ).rejects.toThrow(/longer than 200 characters/);
      const odd = { provider: 'tei', model: `m'); DROP TABLE embedding_model; --` };
      await withStore(DIMENSION, odd);
      await expect(withStore(DIMENSION, odd, record)).resolves.toEqual([
        { ...odd, dimension: DIMENSION },
      ]);
    });
  });
});

describe(`booting the app on a store another model wrote, on ${TEST_ENGINE}`, () => {
  let openai: FakeOpenAi;
  let env: Record<string, string>;
  let release: () => Promise<void>;

  beforeAll(async () => {
    openai = await startFakeOpenAi({ apiKey: 'sk-test', dimension: DIMENSION });
    const engine = await persistentEngineEnv();
    release = engine.release;
    env = {
      ...engine.env,
      EMBEDDING_PROVIDER: 'openai',
      EMBEDDING_DIMENSION: String(DIMENSION),
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.baseURL,
    };
  });
  afterAll(async () => {
    await release();
    await openai.close();
  });

  it('boots the model that wrote it and refuses another one of the same size', async () => {
    const first = await bootTestApp({ ...env, EMBEDDING_MODEL: 'text-embedding-3-small' });
    await first.close();
    await expect(
      bootTestApp({ ...env, EMBEDDING_MODEL: 'text-embedding-3-large' }),
    ).rejects.toThrow(
      /written by openai\/text-embedding-3-small \(8-d\).*text-embedding-3-large \(8-d\).*re-ingest/,
    );
    const again = await bootTestApp({ ...env, EMBEDDING_MODEL: 'text-embedding-3-small' });
    await again.close();
  });
});
