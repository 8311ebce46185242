import { execFile } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

/** libs/client: the committed contract and what openapi-typescript made of it. */
export const ROOT = join(__dirname, '..', '..');
export const CLIENT = join(ROOT, 'libs', 'client');
export const DOCUMENT = join(CLIENT, 'openapi.json');
export const TYPES = join(CLIENT, 'src', 'generated', 'openapi.ts');

export const run = promisify(execFile);

const BANNER = `/**
 * Generated from libs/client/openapi.json by openapi-typescript: do not edit.
 * \`npm run client:generate\` refreshes both from the served document.
 */

`;

export const serialise = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

/** openapi-typescript over a document, as the committed types were made. */
export async function generate(document: unknown): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as OpenAPI3, {
    // Request fields with a server default stay optional; `{}` schemas are `unknown`.
    defaultNonNullable: false,
    emptyObjectsUnknown: true,
  });
  return BANNER + astToString(ast);
}

export interface Packed {
  files: string[];
  /** A project outside the repo with the package installed in its node_modules. */
  consumer: string;
}

/**
 * `npm pack` of libs/client (its prepack compiles it), unpacked where npm would install it
 * in `work`/consumer; its dependency and TypeScript are linked from the repo's tree.
 */
export async function packClient(work: string): Promise<Packed> {
  const pack = await run('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: CLIENT,
    maxBuffer: 16 << 20,
  });
  const [result] = JSON.parse(pack.stdout) as Array<{
    filename: string;
    files: Array<{ path: string }>;
  }>;
  const consumer = join(work, 'consumer');
  const target = join(consumer, 'node_modules', '@context-bridge', 'client');
  mkdirSync(target, { recursive: true });
  await run('tar', ['-xzf', join(work, result.filename), '-C', target, '--strip-components=1']);
  for (const dep of ['openapi-fetch', 'openapi-typescript-helpers', 'typescript']) {
    symlinkSync(join(ROOT, 'node_modules', dep), join(consumer, 'node_modules', dep));
  }
  return { files: result.files.map((f) => f.path).sort(), consumer };
}

/** A strict consumer project resolving the package the way Node 16+ does. */
export function writeTsconfig(dir: string, types: string[]): void {
  const compilerOptions = {
    module: 'node16',
    moduleResolution: 'node16',
    target: 'ES2022',
    lib: ['ES2022', 'DOM'],
    types,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions }));
}

/** tsc over the consumer project: its diagnostics ('' when it compiles). */
export async function typeCheck(consumer: string): Promise<string> {
  const tsc = join(consumer, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(process.execPath, [tsc, '-p', '.'], { cwd: consumer }).catch(
    (e: { stdout: string }) => e,
  );
  return result.stdout;
}
