import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';

import { AUTH_POLICY, type AuthPolicy } from '../src/auth/public.decorator';
import { listRoutes, type RouteInfo, toOpenApiPath } from '../src/common/routes';
import { bootTestApp, type TestApp } from './support/app';

type Json = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every `$ref` string anywhere in `value`. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    value.forEach((v) => refs(v, found));
  } else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string') {
        found.push(v);
      } else {
        refs(v, found);
      }
    }
  }
  return found;
}

/**
 * Structural OpenAPI 3.0 checks (the rules of the spec's object model that matter to
 * clients and code generators), without a schema package.
 */
function structuralProblems(doc: Json): string[] {
  const problems: string[] = [];
  if (typeof doc.openapi !== 'string' || !/^3\.\d+\.\d+$/.test(doc.openapi)) {
    problems.push(`openapi: ${String(doc.openapi)} is not 3.x.y`);
  }
  const info = doc.info as Json | undefined;
  if (typeof info?.title !== 'string' || typeof info?.version !== 'string') {
    problems.push('info: title and version must be strings');
  }
  const paths = doc.paths as Record<string, Json> | undefined;
  if (!paths || typeof paths !== 'object') {
    return [...problems, 'paths: missing'];
  }
  const schemes = ((doc.components as Json | undefined)?.securitySchemes ?? {}) as Json;
  const schemas = ((doc.components as Json | undefined)?.schemas ?? {}) as Json;
  const operationIds = new Set<string>();
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith('/')) {
      problems.push(`${path}: paths must start with /`);
    }
    for (const [method, op] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!METHODS.includes(method)) {
        problems.push(`${where}: not an HTTP method`);
        continue;
      }
      const operation = op as Json;
      const id = operation.operationId as string | undefined;
      if (!id || operationIds.has(id)) {
        problems.push(`${where}: operationId missing or not unique`);
      }
      operationIds.add(id ?? '');
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      if (Object.keys(responses).length === 0) {
        problems.push(`${where}: no responses`);
      }
      for (const [status, response] of Object.entries(responses)) {
        if (!/^([1-5](\d\d|XX)|default)$/.test(status)) {
          problems.push(`${where}: response key ${status}`);
        }
        if (typeof response.description !== 'string') {
          problems.push(`${where} ${status}: description must be a string`);
        }
      }
      for (const requirement of (operation.security ?? doc.security ?? []) as Json[]) {
        for (const scheme of Object.keys(requirement)) {
          if (!(scheme in schemes)) {
            problems.push(`${where}: security scheme ${scheme} is not declared`);
          }
        }
      }
    }
  }
  for (const ref of refs(doc)) {
    const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (!match || !(match[1] in schemas)) {
      problems.push(`$ref ${ref} does not resolve`);
    }
  }
  return problems;
}

describe('OpenAPI docs (e2e)', () => {
  let t: TestApp;
  let doc: Json;
  let routes: RouteInfo[];

  beforeAll(async () => {
    t = await bootTestApp();
    const res = await fetch(`${t.url}/docs/json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    doc = (await res.json()) as Json;
    routes = listRoutes(t.app);
  });
  afterAll(() => t?.close());

  const operation = (route: RouteInfo) =>
    ((doc.paths as Record<string, Json>)[toOpenApiPath(route.path)]?.[route.method.toLowerCase()] ??
      undefined) as Json | undefined;
  const policy = (route: RouteInfo): AuthPolicy | undefined =>
    (Reflect.getMetadata(AUTH_POLICY, route.handler) as AuthPolicy | undefined) ??
    (Reflect.getMetadata(AUTH_POLICY, route.controller) as AuthPolicy | undefined);
  const schemaOf = (schema: Json | undefined): Json | undefined => {
    const ref = schema?.$ref as string | undefined;
    return ref
      ? (((doc.components as Json).schemas as Json)[ref.split('/').pop() as string] as Json)
      : schema;
  };

  it('is a structurally valid OpenAPI 3 document', () => {
    expect(structuralProblems(doc)).toEqual([]);
    // The checker itself catches what it claims to.
    expect(
      structuralProblems({
        openapi: '2.0',
        info: { title: 'x' },
        paths: { a: { fetch: {}, get: { responses: { 299: {}, 600: { description: '' } } } } },
        security: [{ nope: [] }],
        x: { $ref: '#/components/schemas/Missing' },
      }),
    ).toEqual([
      'openapi: 2.0 is not 3.x.y',
      'info: title and version must be strings',
      'a: paths must start with /',
      'FETCH a: not an HTTP method',
      'GET a: operationId missing or not unique',
      'GET a 299: description must be a string',
      'GET a: response key 600',
      'GET a: security scheme nope is not declared',
      '$ref #/components/schemas/Missing does not resolve',
    ]);
  });

  it('documents every registered route, with a 2xx answer and its error codes', () => {
    expect(routes.length).toBeGreaterThanOrEqual(10);
    const undocumented = routes
      .filter((route) => {
        const op = operation(route);
        const responses = Object.keys(op?.responses ?? {});
        return !op || !responses.some((s) => s.startsWith('2')) || !responses.includes('500');
      })
      .map((r) => `${r.method} ${r.path}`);
    expect(undocumented).toEqual([]);
  });

  /** Handlers that read a parsed body (`@Body()`); a raw-bytes route (the webhook) does not. */
  const takesBody = (route: RouteInfo) =>
    Object.keys(
      (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.handler.name) ??
        {}) as Json,
    ).some((key) => key.startsWith(`${RouteParamtypes.BODY}:`));

  it('lists the platform adapters', () => {
    const paths = doc.paths as Record<string, Json>;
    for (const path of [
      '/adapters/vapi/knowledge-base',
      '/mcp',
      '/v1/vector_stores/{contact_uid}/search',
    ]) {
      expect({ path, post: Boolean(paths[path]?.post) }).toEqual({ path, post: true });
    }
  });

  it('documents every JSON body with its fields', () => {
    expect(routes.filter(takesBody).length).toBeGreaterThanOrEqual(8);
    const bodiless = routes
      .filter(takesBody)
      .filter((route) => {
        const content = (
          ((operation(route)?.requestBody as Json | undefined)?.content ?? {}) as Record<
            string,
            Json
          >
        )['application/json'];
        const schema = schemaOf(content?.schema as Json | undefined);
        const hasFields =
          Object.keys(schema?.properties ?? {}).length > 0 ||
          Array.isArray(schema?.oneOf) ||
          schema?.type === 'array';
        return !hasFields;
      })
      .map((r) => `${r.method} ${r.path}`);
    expect(bodiless).toEqual([]);
  });

  it('marks public routes as such and protected ones with the API key and 401/403/429', () => {
    const schemes = (doc.components as Json).securitySchemes as Json;
    expect(schemes).toMatchObject({
      bearer: { type: 'http', scheme: 'bearer' },
      api_key: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    });
    expect(doc.security).toEqual([{ bearer: [] }, { api_key: [] }]);
    const seen = { public: 0, protected: 0 };
    for (const route of routes) {
      const op = operation(route) as Json;
      const access = policy(route)?.access;
      if (access === 'public' || access === 'metrics') {
        seen.public++;
        expect({ route: route.path, security: op.security }).toEqual({
          route: route.path,
          security: [],
        });
      } else {
        seen.protected++;
        expect({ route: route.path, security: op.security }).toEqual({
          route: route.path,
          security: undefined,
        });
        expect(Object.keys(op.responses as Json)).toEqual(
          expect.arrayContaining(['401', '403', '429']),
        );
      }
    }
    expect(seen.public).toBeGreaterThanOrEqual(3); // health ×2, metrics
    expect(seen.protected).toBeGreaterThanOrEqual(7);
  });

  it("names each protected route's key scope and its 403 insufficient_scope", () => {
    const scopeOf = (method: string, path: string) => {
      const op = (doc.paths as Record<string, Record<string, Json>>)[path][method];
      expect(op['x-required-scope']).toBeDefined();
      expect(String((op.responses as Record<string, Json>)['403'].description)).toContain(
        `\`insufficient_scope\`: the key lacks \`${String(op['x-required-scope'])}\``,
      );
      return op['x-required-scope'];
    };
    expect(scopeOf('post', '/context')).toBe('context:read');
    expect(scopeOf('post', '/search')).toBe('search:read');
    expect(scopeOf('post', '/ingest/conversations')).toBe('ingest:write');
    expect(scopeOf('post', '/contacts/forget')).toBe('history:delete');
    for (const route of routes) {
      const access = policy(route)?.access;
      if (access !== 'public' && access !== 'metrics') {
        expect({
          route: route.path,
          scope: typeof (operation(route) as Json)['x-required-scope'],
        }).toEqual({
          route: route.path,
          scope: 'string',
        });
      }
    }
  });

  it('documents the error body and its stable codes', () => {
    const schemas = (doc.components as Json).schemas as Record<string, Json>;
    expect(schemas.ErrorBody).toMatchObject({
      type: 'object',
      required: expect.arrayContaining(['error', 'message', 'request_id']),
    });
    const codes = String((schemas.ErrorBody.properties as Record<string, Json>).error.description);
    for (const code of [
      'missing_api_key',
      'invalid_api_key',
      'location_forbidden',
      'rate_limited',
    ]) {
      expect(codes).toContain(code);
    }
    const search = (doc.paths as Record<string, Json>)['/search'].post as Json;
    const unauthorized = (search.responses as Record<string, Json>)['401'];
    expect(refs(unauthorized)).toEqual(['#/components/schemas/ErrorBody']);
    const limited = (search.responses as Record<string, Json>)['429'];
    expect(limited.headers).toHaveProperty('Retry-After');
  });

  it('documents the SSE event union of POST /chat', () => {
    const chat = (doc.paths as Record<string, Json>)['/chat']?.post as Json | undefined;
    const ok = (chat?.responses as Record<string, Json> | undefined)?.['200'];
    const stream = ((ok?.content as Record<string, Json> | undefined)?.['text/event-stream']
      ?.schema ?? {}) as Json;
    const events = ((stream.oneOf ?? []) as Json[]).map(schemaOf);
    const types = events.map(
      (e) => ((e?.properties as Record<string, Json> | undefined)?.type?.enum as string[])?.[0],
    );
    expect(types).toEqual(
      expect.arrayContaining(['chunk', 'citations', 'out_of_scope', 'error', 'done']),
    );
    expect(chat?.security).toEqual([]); // the employee app's route: CHAT_AUTH, not API keys
  });

  it('serves Swagger UI at /docs, without an API key', async () => {
    const page = await fetch(`${t.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('swagger-ui-bundle.js');
    const init = await (await fetch(`${t.url}/docs/swagger-ui-init.js`)).text();
    expect(init).toContain('"/docs/json"');
    const bundle = await fetch(`${t.url}/docs/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${t.url}/docs/swagger-ui.css`)).status).toBe(200);
  });
});
