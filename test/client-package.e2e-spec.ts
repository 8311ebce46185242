import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { generateApiKey } from '../src/config/api-key-entries';
import { bootTestApp, type TestApp } from './support/app';

/**
 * `npm pack` of libs/client makes an installable package: compiled JavaScript and
 * declarations (no TypeScript source), the OpenAPI document, and nothing of the repo. A
 * consumer outside the repo requires it (CommonJS and ESM) and calls a running server, and
 * its declarations type-check a consumer's code (and refuse a route the contract lacks).
 */

const run = promisify(execFile);
const ROOT = join(__dirname, '..');
const CLIENT = join(ROOT, 'libs', 'client');
const key = generateApiKey('sdk-consumer');

interface PackResult {
  filename: string;
  files: Array<{ path: string }>;
}

/** A strict consumer project resolving the package the way Node 16+ does. */
function writeTsconfig(dir: string, types: string[]): void {
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

describe('@context-bridge/client packs and installs (npm pack)', () => {
  let t: TestApp;
  let work: string;
  let packed: PackResult;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cb-sdk-'));
    const [app, pack] = await Promise.all([
      bootTestApp({ API_KEYS: key.line }),
      run('npm', ['pack', '--json', '--pack-destination', work], {
        cwd: CLIENT,
        maxBuffer: 16 << 20,
      }),
    ]);
    t = app;
    packed = (JSON.parse(pack.stdout) as PackResult[])[0];
    // "Installs" it the way npm lays it out, its one dependency taken from the repo's tree.
    const modules = join(work, 'consumer', 'node_modules');
    mkdirSync(join(modules, '@context-bridge', 'client'), { recursive: true });
    await run('tar', [
      '-xzf',
      join(work, packed.filename),
      '-C',
      join(modules, '@context-bridge', 'client'),
      '--strip-components=1',
    ]);
    for (const dep of ['openapi-fetch', 'openapi-typescript-helpers', 'typescript']) {
      symlinkSync(join(ROOT, 'node_modules', dep), join(modules, dep));
    }
  });
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('holds compiled JavaScript, declarations and the document, no source', () => {
    const files = packed.files.map((f) => f.path).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'package.json',
        'openapi.json',
        'dist/index.js',
        'dist/index.d.ts',
        'dist/generated/openapi.d.ts',
      ]),
    );
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((f) => !/^(dist\/|package\.json$|openapi\.json$)/.test(f))).toEqual([]);
  });

  it('runs from CommonJS and ESM against the server, every route on `api`', async () => {
    const consumer = join(work, 'consumer');
    const body = (lib: string) => `
      const { ContextBridgeClient, unwrap, BridgeError } = ${lib};
      const client = new ContextBridgeClient({ baseUrl: process.argv[2], apiKey: process.argv[3] });
      const redacted = await unwrap(client.api.POST('/redact', { body: { text: 'mail me at jane@example.com' } }));
      const live = await unwrap(client.api.GET('/health/live'));
      const bundle = await client.fetchContext({ transcript: 'hello' });
      const denied = await unwrap(
        new ContextBridgeClient({ baseUrl: process.argv[2] }).api.POST('/search', { body: { query: 'x' } }),
      ).catch((e) => e);
      console.log(JSON.stringify({
        redacted: redacted.text, live: live.status, excerpts: Array.isArray(bundle.historical_excerpts),
        denied: [denied instanceof BridgeError, denied.code, denied.status],
      }));`;
    writeFileSync(
      join(consumer, 'cjs.cjs'),
      `(async () => {${body("require('@context-bridge/client')")}})();`,
    );
    writeFileSync(
      join(consumer, 'esm.mjs'),
      `const lib = await import('@context-bridge/client');${body('lib')}`,
    );
    for (const script of ['cjs.cjs', 'esm.mjs']) {
      const { stdout } = await run(process.execPath, [script, t.url, key.key], { cwd: consumer });
      expect(JSON.parse(stdout)).toEqual({
        redacted: expect.stringContaining('[REDACTED:EMAIL]') as string,
        live: 'ok',
        excerpts: true,
        denied: [true, 'missing_api_key', 401],
      });
    }
  });

  it('its declarations type-check a consumer and refuse a route the contract lacks', async () => {
    const consumer = join(work, 'consumer');
    writeTsconfig(consumer, []);
    const program = (route: string) => `
      import { ContextBridgeClient, type ContextBundle } from '@context-bridge/client';
      const client = new ContextBridgeClient({ baseUrl: 'http://bridge' });
      export const bundle: Promise<ContextBundle> = client.fetchContext({ transcript: 'hi', explain: true });
      export const hits = client.api.POST('${route}', { body: { query: 'x', top_k: 3 } });
    `;
    const tsc = join(consumer, 'node_modules', 'typescript', 'bin', 'tsc');
    writeFileSync(join(consumer, 'ok.ts'), program('/search'));
    await expect(run(process.execPath, [tsc, '-p', '.'], { cwd: consumer })).resolves.toBeDefined();
    writeFileSync(join(consumer, 'ok.ts'), program('/serch'));
    const refused = await run(process.execPath, [tsc, '-p', '.'], { cwd: consumer }).catch(
      (e: { stdout: string }) => e,
    );
    expect(refused.stdout).toMatch(/error TS2345: Argument of type '"\/serch"' is not assignable/);
  });

  it('the SDK examples of docs/agent-platforms.md compile against it (LiveKit, pipeline)', async () => {
    const consumer = join(work, 'consumer');
    const doc = readFileSync(join(ROOT, 'docs', 'agent-platforms.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## TypeScript client (SDK)'));
    const examples = [
      ...section.slice(0, section.indexOf('\n## ', 1)).matchAll(/```ts\n([\s\S]*?)```/g),
    ];
    expect(examples.map((m) => m[1].includes("from '@context-bridge/client'"))).toEqual([
      true,
      true,
    ]);
    for (const dep of ['@livekit', '@types']) {
      symlinkSync(join(ROOT, 'node_modules', dep), join(consumer, 'node_modules', dep));
    }
    rmSync(join(consumer, 'ok.ts'), { force: true });
    examples.forEach((m, i) => writeFileSync(join(consumer, `example${i}.ts`), m[1]));
    const tsc = join(consumer, 'node_modules', 'typescript', 'bin', 'tsc');
    writeTsconfig(consumer, ['node']);
    const result = await run(process.execPath, [tsc, '-p', '.'], { cwd: consumer }).catch(
      (e: { stdout: string }) => e,
    );
    expect(result.stdout).toBe('');
  });
});
