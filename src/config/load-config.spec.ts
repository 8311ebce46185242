import { InvalidEnvironmentError, loadConfig } from './load-config';

describe('loadConfig', () => {
  it('gives the embedded defaults with an empty env', () => {
    const sut = loadConfig({});
    expect(sut.server.port).toBe(3004);
    expect(sut.storage).toMatchObject({
      vectorProvider: 'pgvector',
      dataDir: './data',
      databaseUrl: undefined,
    });
    expect(sut.embedding.provider).toBe('local');
    expect(sut.seedDemoData).toBe(true);
  });

  it('accepts CHAT_PORT as an alias, PORT winning', () => {
    expect(loadConfig({ CHAT_PORT: '4000' }).server.port).toBe(4000);
    expect(loadConfig({ CHAT_PORT: '4000', PORT: '5000' }).server.port).toBe(5000);
  });

  it('lists every problem at once', () => {
    const error = (() => {
      try {
        loadConfig({
          PORT: '-1',
          EMBEDDING_PROVIDER: 'openai',
          TEI_URL: 'ftp://x',
          NODE_ENV: 'staging',
        });
      } catch (e) {
        return e;
      }
    })() as InvalidEnvironmentError;
    expect(error).toBeInstanceOf(InvalidEnvironmentError);
    expect(error.problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'NODE_ENV',
      'OPENAI_API_KEY',
      'PORT',
      'TEI_URL',
    ]);
  });

  it('treats empty strings as unset for optional URLs', () => {
    expect(loadConfig({ DATABASE_URL: '', REDIS_URL: '' }).storage.databaseUrl).toBeUndefined();
  });
});
