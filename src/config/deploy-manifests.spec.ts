import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'yaml';

import { loadConfig } from './load-config';

/**
 * The flat `data:` / `stringData:` map of a ConfigMap or Secret manifest: `KEY: value` lines
 * indented under it (comments skipped, quotes removed). Enough for deploy/, which holds only
 * scalars there.
 */
function envOf(file: string, section: 'data' | 'stringData'): Record<string, string> {
  const lines = readFileSync(join(__dirname, '../../deploy', file), 'utf8').split('\n');
  const start = lines.indexOf(`${section}:`);
  const env: Record<string, string> = {};
  for (const line of lines.slice(start + 1)) {
    const entry = /^ {2}([A-Z0-9_]+): (.*)$/.exec(line);
    if (!entry) {
      if (/^\S/.test(line)) {
        break;
      }
      continue;
    }
    env[entry[1]] = entry[2].replace(/^"(.*)"$/, '$1');
  }
  return env;
}

/**
 * The Secret template as an operator fills in each <placeholder>: a distinct hash per key, a
 * 256-bit hex key for the token encryption, plain words for the rest.
 */
function filledSecret(): Record<string, string> {
  const secret = envOf('secret.template.yaml', 'stringData');
  let hashes = 0;
  for (const [name, value] of Object.entries(secret)) {
    secret[name] = value
      .replaceAll('<sha256hex>', () => String(++hashes).repeat(64))
      .replace('<openssl rand -hex 32>', 'c'.repeat(64))
      .replaceAll(/<[^>]+>/g, 'filled-in');
  }
  return secret;
}

describe('deploy/ manifests', () => {
  it('boot in production on real providers once the Secret template is filled in', () => {
    const config = envOf('configmap.yaml', 'data');
    const secret = filledSecret();
    expect(config.NODE_ENV).toBe('production');
    expect(config.ALLOW_DEMO_PROVIDERS).toBeUndefined();

    const sut = loadConfig({ ...config, ...secret });
    expect(sut.podium.provider).toBe('api');
    expect(sut.curriculum).toMatchObject({
      provider: 'pocketbase',
      pocketbaseUrl: config.POCKETBASE_URL,
    });
    expect(sut.seedDemoData).toBe(false);
  });

  it("give the pod a grace period that covers preStop, the service's drain and its shutdown", () => {
    const deployment = parse(readFileSync(join(__dirname, '../../deploy/deployment.yaml'), 'utf8'));
    const pod = deployment.spec.template.spec;
    const [, preStopSeconds] = pod.containers[0].lifecycle.preStop.exec.command;
    const env = { ...envOf('configmap.yaml', 'data'), ...filledSecret() };
    const drainMs = loadConfig(env).server.shutdownDrainMs;
    // ~10 s after the drain for the modules' own shutdown (docs/operations.md).
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
      Number(preStopSeconds) + Math.ceil(drainMs / 1000) + 10,
    );
  });
});
