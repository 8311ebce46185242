// The OpenAPI validators let an unknown field through (Kubernetes' schemas leave objects open),
// so a misspelt key (`readinessprobe`, `imagePullpolicy`) would render, validate and be dropped
// by the API server in silence. Each rendered object becomes an object literal typed by its
// kubernetes-models interface: TypeScript's excess-property check names the unknown field.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The module whose `I<Kind>` interface types `apiVersion`/`kind`. */
function moduleOf({ apiVersion, kind }) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const pkg =
    group === 'monitoring.coreos.com'
      ? '@kubernetes-models/prometheus-operator'
      : 'kubernetes-models';
  return `${pkg}/${group ? `${group}/` : ''}${version}/${kind}`;
}

/**
 * `entries`: `{ label, object }` pairs. Returns one message per unknown or mistyped field,
 * prefixed with the object's label. The check runs in `dir` (under the repo's node_modules,
 * so the types resolve from there).
 */
export function unknownFields(root, dir, entries) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const lines = entries.map(
    ({ object }, i) =>
      `export const o${i}: import('${moduleOf(object)}').I${object.kind} = ${JSON.stringify(object)};`,
  );
  writeFileSync(join(dir, 'objects.ts'), `${lines.join('\n')}\n`);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'ES2022',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
      },
      files: ['objects.ts'],
    }),
  );
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir],
    { encoding: 'utf8', maxBuffer: 16 << 20 },
  );
  if (tsc.status === 0) {
    return [];
  }
  const problems = [];
  for (const [, line, message] of tsc.stdout.matchAll(/objects\.ts\((\d+),\d+\): error (.*)/g)) {
    problems.push(`${entries[Number(line) - 1]?.label ?? 'unknown object'}: ${message}`);
  }
  return problems.length > 0 ? problems : [`tsc failed: ${tsc.stdout}${tsc.stderr}`];
}
