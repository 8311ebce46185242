import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { generateApiKey, hashApiKey } from './api-key-entries';
import { InvalidEnvironmentError, loadConfig } from './load-config';

/** The problems loadConfig throws for `env`, or [] when it accepts it. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
    return [];
  } catch (error) {
    if (error instanceof InvalidEnvironmentError) {
      return error.problems;
    }
    throw error;
  }
}

const HASH = 'a'.repeat(64);

describe('loadConfig', () => {
  it('gives the embedded defaults with an empty env', () => {
    const sut = loadConfig({});
    expect(sut.server.port).toBe(3004);
    expect(sut.storage.database).toMatchObject({ dataDir: './data', databaseUrl: undefined });
    expect(sut.storage.vector.provider).toBe('pgvector');
    expect(sut.embedding.provider).toBe('local');
    expect(sut.seedDemoData).toBe(true);
  });

  it('takes RERANK_PROVIDER=llm only with a model that can grade, and its stage timeout', () => {
    expect(() => loadConfig({ RERANK_PROVIDER: 'llm' })).toThrow(/llm needs LLM_PROVIDER/);
    const config = loadConfig({
      RERANK_PROVIDER: 'llm',
      RERANK_TIMEOUT_MS: '1500',
      LLM_PROVIDER: 'openai',
      OPENAI_API_KEY: 'k',
    });
    expect(config.rerank).toMatchObject({ provider: 'llm', timeoutMs: 1500 });
  });

  it('leaves the libs their own defaults: tunables not set stay unset in their slices', () => {
    const sut = loadConfig({});
    expect(sut.llm).toEqual({ provider: 'extractive' });
    expect(sut.storage.vector).toEqual({ provider: 'pgvector', qdrantCollections: {} });
    expect(sut.coalescer).toEqual({});
    expect(loadConfig({ QDRANT_TIMEOUT_MS: '700' }).storage.vector.qdrantTimeoutMs).toBe(700);
  });

  it('reads flags as true/false/1/0 in any case, and refuses anything else by name', () => {
    expect(loadConfig({ SEED_DEMO_DATA: 'FALSE' }).seedDemoData).toBe(false);
    expect(loadConfig({ SEED_DEMO_DATA: '1', DATABASE_URL: 'postgres://db/x' }).seedDemoData).toBe(
      true,
    );
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).seedDemoData).toBe(false);
    expect(loadConfig({ METRICS_REQUIRE_KEY: 'True' }).security.metricsRequireKey).toBe(true);
    expect(loadConfig({ METRICS_REQUIRE_KEY: '0' }).security.metricsRequireKey).toBe(false);
    expect(problemsOf({ SEED_DEMO_DATA: 'yes', METRICS_REQUIRE_KEY: 'on' })).toEqual([
      'SEED_DEMO_DATA: SEED_DEMO_DATA must be true, false, 1 or 0',
      'METRICS_REQUIRE_KEY: METRICS_REQUIRE_KEY must be true, false, 1 or 0',
    ]);
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

  it('says a value that is not a number is not one, rather than naming a bound it misses', () => {
    expect(problemsOf({ PORT: 'abc', CONTEXT_TIMEOUT_MS: 'fast', CHAT_THEME_BOOST: 'x' })).toEqual([
      'PORT: PORT must be an integer number',
      'CONTEXT_TIMEOUT_MS: CONTEXT_TIMEOUT_MS must be an integer number',
      expect.stringMatching(/^CHAT_THEME_BOOST: CHAT_THEME_BOOST must be a number/),
    ]);
    // In bounds but not whole, and out of bounds: the rule it breaks.
    expect(problemsOf({ PORT: '80.5', SHUTDOWN_DRAIN_MS: '-1', POOL_K: '1e9' })).toEqual([
      'PORT: PORT must be an integer number',
      'SHUTDOWN_DRAIN_MS: SHUTDOWN_DRAIN_MS must not be less than 0',
      expect.stringMatching(/^POOL_K: POOL_K must not be greater than \d+$/),
    ]);
  });

  it('names the URL schemes a URL setting takes, and never echoes the URL', () => {
    const problems = problemsOf({
      DATABASE_URL: 'mysql://svc:hunter2-password@db:3306/cb',
      REDIS_URL: 'cache:6379',
      QDRANT_URL: 'qdrant',
    });
    expect(problems).toEqual([
      'DATABASE_URL: DATABASE_URL must be a postgres:// or postgresql:// URL',
      'QDRANT_URL: QDRANT_URL must be a http:// or https:// URL',
      'REDIS_URL: REDIS_URL must be a redis:// or rediss:// URL',
    ]);
    expect(problems.join('\n')).not.toMatch(/hunter2|cache:6379/);
  });

  it('refuses to boot without DATABASE_URL when REQUIRE_DATABASE_URL=true, and only then', () => {
    expect(problemsOf({ REQUIRE_DATABASE_URL: 'true' })).toEqual([
      'DATABASE_URL: required when REQUIRE_DATABASE_URL=true',
    ]);
    expect(problemsOf({ REQUIRE_DATABASE_URL: 'true', DATABASE_URL: '' })).toHaveLength(1);
    expect(problemsOf({ REQUIRE_DATABASE_URL: 'yes' })).toEqual([
      'REQUIRE_DATABASE_URL: REQUIRE_DATABASE_URL must be true, false, 1 or 0',
    ]);
    const url = 'postgres://cb@db:5432/cb';
    expect(
      loadConfig({ REQUIRE_DATABASE_URL: '1', DATABASE_URL: url }).storage.database.databaseUrl,
    ).toBe(url);
    expect(
      loadConfig({ REQUIRE_DATABASE_URL: 'false' }).storage.database.databaseUrl,
    ).toBeUndefined();
  });

  it('treats empty strings as unset for optional URLs', () => {
    expect(
      loadConfig({ DATABASE_URL: '', REDIS_URL: '' }).storage.database.databaseUrl,
    ).toBeUndefined();
  });
});

describe('loadConfig: security', () => {
  it('runs open by default, with rate limits, one ingest at a time and no CORS', () => {
    const sut = loadConfig({});
    expect(sut.security).toEqual({
      apiKeys: [],
      metricsRequireKey: false,
      chatAuth: { mode: 'none' },
      corsOrigins: [],
    });
    expect(sut.limits).toEqual({ perKeyPerMinute: 6000, perIpPerMinute: 3000 });
    expect(sut.ingest).toEqual({ maxRecords: 5000, maxInFlight: 1 });
    expect(sut.server.trustProxy).toBe(false);
  });

  it('refuses NODE_ENV=production without keys, and says how to make one', () => {
    const production = { NODE_ENV: 'production', ALLOW_DEMO_PROVIDERS: 'true' };
    const problems = problemsOf(production);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^API_KEYS: .*refuses to run open.*keys new/);
    expect(problemsOf({ ...production, API_KEYS: `svc:${HASH}` })).toEqual([]);
  });

  it('merges API_KEYS and API_KEYS_FILE, with bound locations (which may contain colons)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cb-keys-'));
    const file = join(dir, 'keys');
    const b = generateApiKey('b', ['loc:1', 'loc_2']);
    writeFileSync(file, `# rotated 2026-12-01\n${b.line}\n\n c:${'C'.repeat(64)} \n`);
    const sut = loadConfig({ API_KEYS: `a:${HASH}`, API_KEYS_FILE: file });
    expect(sut.security.apiKeys).toEqual([
      { name: 'a', sha256: HASH, locations: null },
      { name: 'b', sha256: hashApiKey(b.key), locations: ['loc:1', 'loc_2'] },
      { name: 'c', sha256: 'c'.repeat(64), locations: null },
    ]);
  });

  it('lists bad key entries without quoting them, and flags a pasted plain key', () => {
    const { key } = generateApiKey('x');
    const problems = problemsOf({
      API_KEYS: [`ok:${HASH}`, key, 'short:abc', `ok:${'b'.repeat(64)}`, `e:${HASH}:`].join(','),
      API_KEYS_FILE: '/nonexistent/keys',
    });
    expect(problems).toEqual([
      'API_KEYS_FILE: cannot read /nonexistent/keys (ENOENT)',
      'API_KEYS: entry 2 looks like a plain key; configure its sha256 instead (npx context-bridge keys hash)',
      'API_KEYS: entry 3 is not name:sha256hex or name:sha256hex:locA|locB',
      'API_KEYS: entry 5: has an empty location_uid',
      'API_KEYS: key name "ok" is configured twice',
    ]);
    expect(problems.join('\n')).not.toContain(key);
  });

  it('needs exactly one JWT key source for CHAT_AUTH=jwt, and a long enough secret', () => {
    expect(problemsOf({ CHAT_AUTH: 'jwt' })).toEqual([
      'CHAT_JWT_SECRET: set exactly one of CHAT_JWT_SECRET or CHAT_JWKS_URL when CHAT_AUTH=jwt',
    ]);
    expect(problemsOf({ CHAT_AUTH: 'jwt', CHAT_JWT_SECRET: 'too-short' })[0]).toMatch(
      /^CHAT_JWT_SECRET: .*32/,
    );
    const sut = loadConfig({
      CHAT_AUTH: 'jwt',
      CHAT_JWKS_URL: 'https://idp.example.com/.well-known/jwks.json',
      CHAT_JWT_AUDIENCE: 'r42-app, r42-admin',
    });
    expect(sut.security.chatAuth).toEqual({
      mode: 'jwt',
      jwksUrl: 'https://idp.example.com/.well-known/jwks.json',
      audience: ['r42-app', 'r42-admin'],
    });
  });

  it('accepts origins only (no paths), and `*` only alone', () => {
    expect(
      loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' }).security
        .corsOrigins,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(problemsOf({ CORS_ORIGINS: 'https://app.example.com/chat' })[0]).toMatch(
      /^CORS_ORIGINS: https:\/\/app.example.com\/chat is not an origin/,
    );
    expect(problemsOf({ CORS_ORIGINS: '*,https://a.example.com' })).toHaveLength(1);
  });

  it('parses TRUST_PROXY as a flag, a hop count or addresses; `true` is one hop, not every hop', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).server.trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '0' }).server.trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).server.trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, ::1' }).server.trustProxy).toEqual([
      '10.0.0.0/8',
      '::1',
    ]);
    expect(problemsOf({ TRUST_PROXY: '10.0.0.0/33' })[0]).toMatch(/^TRUST_PROXY: /);
  });

  it('reads the Podium webhook and token settings, and refuses a token key that is not 256 bits', () => {
    expect(loadConfig({}).webhooks).toEqual({
      secret: undefined,
      toleranceMs: 300_000,
      deadLetterRetentionHours: 168,
    });
    expect(loadConfig({}).podium.tokenEncryptionKey).toBeUndefined();
    const key = 'ab'.repeat(32);
    const sut = loadConfig({
      PODIUM_WEBHOOK_TOLERANCE_MS: '60000',
      PODIUM_WEBHOOK_DEAD_LETTER_RETENTION_HOURS: '0',
      PODIUM_TOKEN_ENCRYPTION_KEY: key,
    });
    expect(sut.webhooks).toMatchObject({ toleranceMs: 60_000, deadLetterRetentionHours: 0 });
    expect(sut.podium.tokenEncryptionKey).toBe(key);
    expect(
      problemsOf({ PODIUM_TOKEN_ENCRYPTION_KEY: 'short', PODIUM_WEBHOOK_TOLERANCE_MS: '10' }).map(
        (p) => p.split(':')[0],
      ),
    ).toEqual(['PODIUM_WEBHOOK_TOLERANCE_MS', 'PODIUM_TOKEN_ENCRYPTION_KEY']);
  });

  it('still validates the variables of every concern class (intersected decorators)', () => {
    expect(
      problemsOf({
        PORT: 'x',
        QDRANT_TIMEOUT_MS: '1',
        POOL_K: '0',
        PODIUM_CACHE_TTL_MS: '-1',
        LLM_MAX_TOKENS: '0',
        RATE_LIMIT_PER_IP_PER_MINUTE: '-5',
        INGEST_MAX_INFLIGHT: '0',
      }).map((p) => p.split(':')[0]),
    ).toEqual([
      'PORT',
      'QDRANT_TIMEOUT_MS',
      'POOL_K',
      'PODIUM_CACHE_TTL_MS',
      'LLM_MAX_TOKENS',
      'RATE_LIMIT_PER_IP_PER_MINUTE',
      'INGEST_MAX_INFLIGHT',
    ]);
  });

  it('accepts CHAT_MODEL as an alias of LLM_MODEL, LLM_MODEL winning', () => {
    expect(loadConfig({ CHAT_MODEL: 'claude-x' }).llm.model).toBe('claude-x');
    expect(loadConfig({ CHAT_MODEL: 'claude-x', LLM_MODEL: 'claude-y' }).llm.model).toBe(
      'claude-y',
    );
    expect(loadConfig({}).llm.model).toBeUndefined();
  });
});
