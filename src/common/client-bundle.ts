import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** A built browser client: one minified ES module and what a page needs to pin it. */
export interface ClientBundle {
  code: Buffer;
  /** Subresource Integrity value (`sha384-…`) for `<script integrity>`. */
  integrity: string;
}

/** Where a browser client's sources start and where `npm run build` writes it. */
export interface ClientSpec {
  /** Entry point, relative to the project root. */
  entry: string;
  /** Output file, relative to the project root (under dist/). */
  out: string;
}

/** The project root: the nearest folder above this file with a package.json (src/ or dist/). */
export function projectRoot(from = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`No package.json above ${from}`);
    }
    dir = parent;
  }
  return dir;
}

export const integrityOf = (code: Buffer) =>
  `sha384-${createHash('sha384').update(code).digest('base64')}`;

/**
 * Bundles a client into one minified ES module with esbuild (a dev dependency: production
 * images ship the built file, not the bundler) and writes it to `spec.out`. Deterministic:
 * the same sources give the same bytes and integrity.
 */
export async function buildClient(spec: ClientSpec, root = projectRoot()): Promise<ClientBundle> {
  // Loaded here, not at the top: the running service imports this file but never the bundler
  // unless the bundle is missing.
  // eslint-disable-next-line import-x/no-extraneous-dependencies -- build time and tests only: a release ships the built bundle
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(root, spec.entry)],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const code = Buffer.from(result.outputFiles[0].contents);
  const out = join(root, spec.out);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  return { code, integrity: integrityOf(code) };
}

/** Reads the built bundle, or builds it when it is missing (a clean clone running tests). */
export async function loadClient(spec: ClientSpec, root = projectRoot()): Promise<ClientBundle> {
  const path = join(root, spec.out);
  if (existsSync(path)) {
    const code = readFileSync(path);
    return { code, integrity: integrityOf(code) };
  }
  return buildClient(spec, root);
}
