import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { generateApiKey } from '../src/config/api-key-entries';
import { bootTestApp, type TestApp } from './support/app';
import {
  DOCUMENT,
  generate,
  packClient,
  type Packed,
  ROOT,
  run,
  serialise,
  typeCheck,
  TYPES,
  writeTsconfig,
} from './support/client-sdk';

/**
 * `@context-bridge/client` is generated from the contract: libs/client/openapi.json is the
 * document the service serves at /docs/json, and src/generated/openapi.ts is what
 * openapi-typescript makes of it. A route, field or schema changed on the server without
 * regenerating fails here; `npm run client:generate` refreshes both (this suite, writing).
 * Then `npm pack` of it: compiled JavaScript and declarations, no source; a consumer outside
 * the repo requires it (CommonJS and ESM) against the server, and its declarations type-check
 * a consumer's code and the documented examples (and refuse a route the contract lacks).
 */

const UPDATE = process.env.UPDATE_CLIENT_SDK === '1';
const key = generateApiKey('sdk-consumer');

type Json = Record<string, unknown>;

describe('@context-bridge/client, generated from the served OpenAPI document', () => {
  let t: TestApp;
  let served: Json;
  let work: string;
  let packed: Packed;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'cb-sdk-'));
    const booting = bootTestApp({ API_KEYS: key.line });
    // Regenerating: the package is packed from the new files, so after them.
    const packing = UPDATE ? undefined : packClient(work);
    t = await booting;
    const res = await fetch(`${t.url}/docs/json`);
    expect(res.status).toBe(200);
    served = (await res.json()) as Json;
    if (UPDATE) {
      writeFileSync(DOCUMENT, serialise(served));
      writeFileSync(TYPES, await generate(served));
    }
    packed = await (packing ?? packClient(work));
  });
  afterAll(async () => {
    await t?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('the committed document is the one the service serves (npm run client:generate)', () => {
    const committed = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as Json;
    expect(committed).toEqual(served);
    expect(readFileSync(DOCUMENT, 'utf8')).toBe(serialise(served));
  });

  it('the committed types are openapi-typescript’s output for it', async () => {
    const committed = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as unknown;
    expect(readFileSync(TYPES, 'utf8')).toBe(await generate(committed));
  });

  it('the types cover every operation of the document', () => {
    const types = readFileSync(TYPES, 'utf8');
    const operations = Object.values(served.paths as Record<string, Json>).flatMap((item) =>
      Object.values(item).map((op) => (op as { operationId: string }).operationId),
    );
    expect(operations.length).toBeGreaterThanOrEqual(25);
    for (const path of Object.keys(served.paths as Json)) {
      expect(types).toContain(`    ${JSON.stringify(path)}: {`);
    }
    for (const id of operations) {
      expect(types).toContain(`    ${id}: {`);
    }
  });

  it('a changed document changes the generated types (the comparison can fail)', async () => {
    const changed = structuredClone(served) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    changed.components.schemas.ContextFetchRequestDto.properties.added_by_the_server = {
      type: 'string',
    };
    const types = await generate(changed);
    expect(types).toContain('added_by_the_server?: string;');
    expect(types).not.toBe(readFileSync(TYPES, 'utf8'));
  });

  it('holds compiled JavaScript, declarations and the document, no source', () => {
    const files = packed.files;
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
    const { consumer } = packed;
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
    const { consumer } = packed;
    writeTsconfig(consumer, []);
    const program = (route: string) => `
      import { ContextBridgeClient, type ContextBundle } from '@context-bridge/client';
      const client = new ContextBridgeClient({ baseUrl: 'http://bridge' });
      export const bundle: Promise<ContextBundle> = client.fetchContext({ transcript: 'hi', explain: true });
      export const hits = client.api.POST('${route}', { body: { query: 'x', top_k: 3 } });
    `;
    writeFileSync(join(consumer, 'ok.ts'), program('/search'));
    expect(await typeCheck(consumer)).toBe('');
    writeFileSync(join(consumer, 'ok.ts'), program('/serch'));
    expect(await typeCheck(consumer)).toMatch(
      /error TS2345: Argument of type '"\/serch"' is not assignable/,
    );
  });

  it('the SDK examples of docs/agent-platforms.md compile against it (LiveKit, pipeline, both also on the call stream)', async () => {
    const { consumer } = packed;
    const doc = readFileSync(join(ROOT, 'docs', 'agent-platforms.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## TypeScript client (SDK)'));
    const examples = [
      ...section.slice(0, section.indexOf('\n## ', 1)).matchAll(/```ts\n([\s\S]*?)```/g),
    ];
    expect(examples.map((m) => m[1].includes("from '@context-bridge/client'"))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    for (const dep of ['@livekit', '@types']) {
      symlinkSync(join(ROOT, 'node_modules', dep), join(consumer, 'node_modules', dep));
    }
    rmSync(join(consumer, 'ok.ts'), { force: true });
    examples.forEach((m, i) => writeFileSync(join(consumer, `example${i}.ts`), m[1]));
    writeTsconfig(consumer, ['node']);
    expect(await typeCheck(consumer)).toBe('');
  });
});
