import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { getMetadataStorage } from 'class-validator';

import { type AppConfig } from './app-config';
import { EnvSchema } from './env.schema';
import { loadConfig } from './load-config';

const EXAMPLE = join(__dirname, '../../.env.example');
const text = readFileSync(EXAMPLE, 'utf8');

/** What `docker run --env-file` makes of a file: every `NAME=value` line, verbatim. */
const set = Object.fromEntries(
  text
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [m[1], m[2]]),
);

/** What the Dockerfile sets, plus a key: a deployment with nothing else configured. */
const DEPLOYMENT = {
  NODE_ENV: 'production',
  PORT: '3004',
  DATA_DIR: '/data',
  API_KEYS: `local:${'a'.repeat(64)}`,
};
/** The same with the try-out flag the README's command adds. */
const IMAGE = { ...DEPLOYMENT, ALLOW_DEMO_PROVIDERS: 'true' };

/**
 * What depends on where the service runs, and what it serves. (The tunables the example sets
 * are the libs' own defaults written out, which a config keeps unset: not compared.)
 */
const placement = (config: AppConfig) => ({
  server: config.server,
  database: config.storage.database,
  seedDemoData: config.seedDemoData,
  providers: [
    config.storage.vector.provider,
    config.embedding.provider,
    config.rerank.provider,
    config.llm.provider,
    config.podium.provider,
    config.curriculum.provider,
  ],
});

describe('.env.example', () => {
  it('is safe to copy to .env: what it sets changes nothing, on a laptop or in the image', () => {
    expect(placement(loadConfig(set))).toEqual(placement(loadConfig({})));
    // `docker run --env-file .env` puts these over the image's own ENV.
    const inImage = loadConfig({ ...IMAGE, ...set });
    expect(placement(inImage)).toEqual(placement(loadConfig(IMAGE)));
    expect(inImage.server.env).toBe('production');
    expect(inImage.storage.database.dataDir).toBe('/data');
  });

  it('is safe to copy into a real deployment too: no demo provider named, so none is refused', () => {
    const sut = loadConfig({ ...DEPLOYMENT, ...set });
    expect(placement(sut)).toEqual(placement(loadConfig(DEPLOYMENT)));
    expect([sut.podium.provider, sut.curriculum.provider]).toEqual(['none', 'none']);
  });

  it('documents every variable the service reads', () => {
    // Every variable carries a validator (at least IsOptional): the validators name them all.
    const names = [
      ...new Set(
        getMetadataStorage()
          .getTargetValidationMetadatas(EnvSchema, '', true, false)
          .map((m) => m.propertyName),
      ),
    ];
    expect(names).toEqual(expect.arrayContaining(['NODE_ENV', 'ALLOW_DEMO_PROVIDERS', 'API_KEYS']));
    expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(text))).toEqual([]);
  });
});
