import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The built widget: one minified ES module and what a page needs to pin it. */
export interface WidgetBundle {
  code: Buffer;
  /** Subresource Integrity value (`sha384-…`) for `<script integrity>`. */
  integrity: string;
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

/** Where `npm run build` writes the bundle and the service reads it. */
export const bundlePath = (root = projectRoot()) => join(root, 'dist', 'widget', 'r42-chat.js');

export const integrityOf = (code: Buffer) =>
  `sha384-${createHash('sha384').update(code).digest('base64')}`;

/**
 * Bundles `src/widget/client` into one minified ES module with esbuild (a dev dependency:
 * production images ship the built file, not the bundler) and writes it to
 * {@link bundlePath}. Deterministic: the same sources give the same bytes and integrity.
 */
export async function buildWidget(root = projectRoot()): Promise<WidgetBundle> {
  // Loaded here, not at the top: the running service imports this file but never the bundler
  // unless the bundle is missing.
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: [join(root, 'src', 'widget', 'client', 'index.ts')],
    bundle: true,
    minify: true,
    format: 'esm',
    target: ['es2022', 'chrome110', 'firefox115', 'safari16'],
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const code = Buffer.from(result.outputFiles[0].contents);
  const out = bundlePath(root);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, code);
  return { code, integrity: integrityOf(code) };
}

/** Reads the built bundle, or builds it when it is missing (a clean clone running tests). */
export async function loadWidget(root = projectRoot()): Promise<WidgetBundle> {
  const path = bundlePath(root);
  if (existsSync(path)) {
    const code = readFileSync(path);
    return { code, integrity: integrityOf(code) };
  }
  return buildWidget(root);
}

/** `node dist/src/widget/widget-build.js`: the `build` script's second step; prints size and SRI. */
if (require.main === module) {
  buildWidget().then(
    ({ code, integrity }) => {
      const gzip = gzipSync(code, { level: 9 });
      process.stdout.write(
        `widget: ${bundlePath()} ${code.length} bytes minified, ${gzip.length} gzip\nintegrity: ${integrity}\n`,
      );
    },
    (error: unknown) => {
      process.stderr.write(`widget build failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
}
