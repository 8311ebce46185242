import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';

import { bootTestApp, type TestApp } from './support/app';

/**
 * `@context-bridge/client` is generated from the contract: libs/client/openapi.json is the
 * document the service serves at /docs/json, and src/generated/openapi.ts is what
 * openapi-typescript makes of it. A route, field or schema changed on the server without
 * regenerating fails here. `npm run client:generate` refreshes both (this suite, writing).
 */

const CLIENT = join(__dirname, '..', 'libs', 'client');
const DOCUMENT = join(CLIENT, 'openapi.json');
const TYPES = join(CLIENT, 'src', 'generated', 'openapi.ts');
const UPDATE = process.env.UPDATE_CLIENT_SDK === '1';

const BANNER = `/**
 * Generated from libs/client/openapi.json by openapi-typescript: do not edit.
 * \`npm run client:generate\` refreshes both from the served document.
 */

`;

const serialise = (document: unknown) => `${JSON.stringify(document, null, 2)}\n`;

/** openapi-typescript over a document, as the committed types were made. */
async function generate(document: unknown): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as OpenAPI3, {
    // Request fields with a server default stay optional; `{}` schemas are `unknown`.
    defaultNonNullable: false,
    emptyObjectsUnknown: true,
  });
  return BANNER + astToString(ast);
}

type Json = Record<string, unknown>;

describe('@context-bridge/client is generated from the served OpenAPI document', () => {
  let t: TestApp;
  let served: Json;

  beforeAll(async () => {
    t = await bootTestApp();
    const res = await fetch(`${t.url}/docs/json`);
    expect(res.status).toBe(200);
    served = (await res.json()) as Json;
    if (UPDATE) {
      writeFileSync(DOCUMENT, serialise(served));
      writeFileSync(TYPES, await generate(served));
    }
  });
  afterAll(() => t?.close());

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
});
