import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CURRICULUM_PROVIDERS } from '@app/curriculum';
import { EMBEDDING_PROVIDERS } from '@app/embedding';
import { LLM_PROVIDERS } from '@app/llm';
import { PODIUM_PROVIDERS } from '@app/podium';
import { RERANK_PROVIDERS } from '@app/rerank';
import { VECTOR_PROVIDERS } from '@app/vector';
import Ajv from 'ajv';
import { getMetadataStorage } from 'class-validator';
import { parse } from 'yaml';

import { EnvSchema } from './env.schema';
import { loadConfig } from './load-config';

/**
 * The Helm chart (deploy/helm/context-bridge) against the service's own configuration: its
 * providers are the ones the service accepts, every variable it sets is one the service
 * reads, every secret has a value, and its production values boot. `npm run chart:check`
 * renders it with helm; this runs without.
 */

const CHART = join(__dirname, '../../deploy/helm/context-bridge');
const read = (file: string) => readFileSync(join(CHART, file), 'utf8');

interface Values {
  providers: Record<string, unknown> & { qdrant: { url: string } };
  config: Record<string, string>;
  secret: { values: Record<string, string> };
  persistence?: { enabled: boolean };
}
const defaults = parse(read('values.yaml')) as Values;
const production = parse(read('ci/production-values.yaml')) as Values;
const schema = JSON.parse(read('values.schema.json')) as {
  properties: Record<string, { properties: Record<string, { enum?: string[] }> }>;
};
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

/** `"ENV_NAME" $p.field` pairs of the helpers' env dicts: how a provider value is named. */
const PROVIDER_ENV = [
  ...read('templates/_helpers.tpl').matchAll(/"([A-Z][A-Z0-9_]+)" \(?(?:toString )?\$p\.([\w.]+)/g),
].map(([, env, path]) => ({ env, path }));

/** The environment the chart's ConfigMap gives the pod for these values (see _helpers.tpl). */
function envOf(values: Values): Record<string, string> {
  const providers = { ...defaults.providers, ...values.providers };
  const env: Record<string, string> = { PORT: '3004', DATA_DIR: '/data' };
  if (!(values.persistence ?? defaults.persistence)?.enabled) {
    env.REQUIRE_DATABASE_URL = 'true';
  }
  for (const { env: name, path } of PROVIDER_ENV) {
    const value = path
      .split('.')
      .reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], providers);
    if (typeof value === 'string' || typeof value === 'number') {
      if (value !== '') {
        env[name] = String(value);
      }
    }
  }
  return { ...env, ...values.config };
}

describe('the Helm chart and the service configuration', () => {
  it('offers exactly the providers the service accepts', () => {
    const providers = schema.properties.providers.properties;
    expect({
      vector: providers.vector.enum,
      embedding: providers.embedding.enum,
      rerank: providers.rerank.enum,
      llm: providers.llm.enum,
      podium: providers.podium.enum,
      curriculum: providers.curriculum.enum,
    }).toEqual({
      vector: expect.arrayContaining([...VECTOR_PROVIDERS]) as string[],
      embedding: expect.arrayContaining([...EMBEDDING_PROVIDERS]) as string[],
      rerank: expect.arrayContaining([...RERANK_PROVIDERS]) as string[],
      llm: expect.arrayContaining([...LLM_PROVIDERS]) as string[],
      podium: expect.arrayContaining([...PODIUM_PROVIDERS]) as string[],
      curriculum: expect.arrayContaining([...CURRICULUM_PROVIDERS]) as string[],
    });
    expect(providers.vector.enum).toHaveLength(VECTOR_PROVIDERS.length);
    expect(providers.podium.enum).toHaveLength(PODIUM_PROVIDERS.length);
    expect(providers.curriculum.enum).toHaveLength(CURRICULUM_PROVIDERS.length);
  });

  it('sets only variables the service reads, and has a value for every secret', () => {
    const known = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(EnvSchema, '', true, false)
        .map((m) => m.propertyName),
    );
    expect(PROVIDER_ENV.length).toBeGreaterThanOrEqual(14);
    const set = [
      ...Object.keys(envOf(defaults)),
      ...Object.keys(envOf(production)),
      ...PROVIDER_ENV.map((p) => p.env),
      ...Object.keys(defaults.secret.values),
    ];
    expect([...new Set(set)].filter((name) => !known.has(name))).toEqual([]);
    // The Secret template's keys (what the kustomize base reads) all have a chart value.
    const template = parse(
      readFileSync(join(__dirname, '../../deploy/secret.template.yaml'), 'utf8'),
    ) as { stringData: Record<string, string> };
    expect(Object.keys(defaults.secret.values)).toEqual(
      expect.arrayContaining(Object.keys(template.stringData)),
    );
  });

  it('the default and production values pass the schema', () => {
    expect(validate(defaults)).toBe(true);
    expect(validate({ ...defaults, ...production })).toBe(true);
  });

  it('the production values boot in production once their Secret is filled in', () => {
    const secret = {
      API_KEYS: `voice-agent:${'1'.repeat(64)}`,
      DATABASE_URL: 'postgres://cb:filled-in@postgres.internal:5432/cb',
      OPENAI_API_KEY: 'sk-filled-in',
      ANTHROPIC_API_KEY: 'sk-ant-filled-in',
      PODIUM_CLIENT_ID: 'filled-in',
      PODIUM_CLIENT_SECRET: 'filled-in',
      PODIUM_REFRESH_TOKEN: 'filled-in',
      PODIUM_WEBHOOK_SECRET: 'filled-in',
      PODIUM_TOKEN_ENCRYPTION_KEY: 'c'.repeat(64),
      POCKETBASE_ADMIN_EMAIL: 'ops@example.com',
      POCKETBASE_ADMIN_PASSWORD: 'filled-in',
      TELEMETRY_HASH_KEY: 'd'.repeat(64),
    };
    const env = envOf(production);
    expect(env.NODE_ENV).toBe('production');
    const config = loadConfig({ ...env, ...secret });
    expect(config.podium.provider).toBe('api');
    expect(config.curriculum).toMatchObject({ provider: 'pocketbase' });
    expect(config.seedDemoData).toBe(false);
  });

  it('pods without a volume refuse to boot when the Secret has no DATABASE_URL', () => {
    const secret = { API_KEYS: `voice-agent:${'1'.repeat(64)}` };
    expect(() => loadConfig({ ...envOf(defaults), ...secret })).toThrow(
      /DATABASE_URL: required when REQUIRE_DATABASE_URL=true/,
    );
    // The embedded store on its volume (one pod) is what runs without it.
    const embedded = envOf({ ...defaults, persistence: { enabled: true } });
    expect(loadConfig({ ...embedded, ...secret }).storage.database).toMatchObject({
      dataDir: '/data',
      databaseUrl: undefined,
    });
  });

  const hostile: Array<[string, (v: Values & Record<string, unknown>) => void]> = [
    ['an unknown provider', (v) => (v.providers.vector = 'mysql')],
    ['a shell-ish provider', (v) => (v.providers.embedding = 'openai;rm -rf /')],
    ['a secret in the ConfigMap', (v) => (v.config.OPENAI_API_KEY = 'sk-live')],
    ['API_KEYS_FILE set by hand', (v) => (v.config.API_KEYS_FILE = '/etc/passwd')],
    ['a lower-case variable', (v) => (v.config.node_env = 'x')],
    ['a 5,000-character setting', (v) => (v.config.LOG_LEVEL = 'x'.repeat(5000))],
    ['an unknown secret key', (v) => (v.secret.values.SHELL = 'x')],
    ['a 100 KiB secret', (v) => (v.secret.values.API_KEYS = 'k'.repeat(100 * 1024))],
    ['1000 replicas', (v) => (v.replicaCount = 1000)],
    ['zero replicas', (v) => (v.replicaCount = 0)],
    ['a non-sha256 digest', (v) => (v.image = { repository: 'r', digest: 'md5:abc' })],
    ['a provider URL that is not http(s)', (v) => (v.providers.qdrant.url = 'file:///etc/shadow')],
    ['a typo at the top level', (v) => (v.replicas = 3)],
  ];
  it.each(hostile)('refuses %s', (_, mutate) => {
    const values = structuredClone(defaults) as Values & Record<string, unknown>;
    mutate(values);
    expect(validate(values)).toBe(false);
  });
});
