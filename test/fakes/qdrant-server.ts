import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import type { operations } from '../../node_modules/@qdrant/js-client-rest/dist/types/openapi/generated_schema.js' with {
  'resolution-mode': 'import',
};
import { qdrantRequestValidators } from '../support/qdrant-schema';
import { hold, listenOnLoopback, readBody } from './loopback';
import { FakeQdrantEngine, QdrantHttpError, type S } from './qdrant-engine';
import { query, retrieve, scroll } from './qdrant-query';

/**
 * A loopback server speaking Qdrant's REST API for the endpoints the provider uses, typed
 * with the OpenAPI operations `@qdrant/js-client-rest` ships. Every request body is checked
 * against the JSON Schema derived from those types: a body that does not conform is answered
 * as Qdrant does (400, "Format error in JSON body") and recorded in `violations`, which the
 * suites assert stays empty. Requests the fake cannot interpret land in `unsupported`.
 */

type Op = keyof operations;
type JsonBody<O extends Op> = operations[O] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : undefined;
type OkResult<O extends Op> = operations[O] extends {
  responses: { 200: { content: { 'application/json': { result?: infer R } } } };
}
  ? R
  : never;

/** The component schema that is exactly an operation's body type (checked by the compiler). */
type SchemaOf<O extends Op> = {
  [N in keyof S]: [S[N]] extends [JsonBody<O>] ? ([JsonBody<O>] extends [S[N]] ? N : never) : never;
}[keyof S];

const BODY_SCHEMAS = {
  create_collection: 'CreateCollection',
  create_field_index: 'CreateFieldIndex',
  upsert_points: 'PointInsertOperations',
  get_points: 'PointRequest',
  batch_update: 'UpdateOperations',
  delete_points: 'PointsSelector',
  set_payload: 'SetPayload',
  count_points: 'CountRequest',
  query_points: 'QueryRequest',
  query_batch_points: 'QueryRequestBatch',
  scroll_points: 'ScrollRequest',
} as const satisfies { [O in Op]?: SchemaOf<O> };

type BodyOp = keyof typeof BODY_SCHEMAS;

interface Route<O extends Op> {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  path: RegExp;
  operation: O;
  handle(engine: FakeQdrantEngine, collection: string, body: JsonBody<O>): OkResult<O>;
}

const route = <O extends Op>(r: Route<O>): Route<Op> => r;

const C = '/collections/([^/]+)';
const ROUTES: Array<Route<Op>> = [
  route({
    method: 'GET',
    path: new RegExp(`^${C}$`),
    operation: 'get_collection',
    handle: (e, c) => e.info(e.collection(c)),
  }),
  route({
    method: 'PUT',
    path: new RegExp(`^${C}$`),
    operation: 'create_collection',
    handle: (e, c, b) => e.createCollection(c, b),
  }),
  route({
    method: 'DELETE',
    path: new RegExp(`^${C}$`),
    operation: 'delete_collection',
    handle: (e, c) => e.collections.delete(c),
  }),
  route({
    method: 'PUT',
    path: new RegExp(`^${C}/index$`),
    operation: 'create_field_index',
    handle: (e, c, b) => e.createIndex(c, b),
  }),
  route({
    method: 'PUT',
    path: new RegExp(`^${C}/points$`),
    operation: 'upsert_points',
    handle: (e, c, b) => (e.upsert(e.collection(c), b), e.completed()),
  }),
  route({
    method: 'POST',
    path: new RegExp(`^${C}/points$`),
    operation: 'get_points',
    handle: (e, c, b) => retrieve(e.collection(c), b),
  }),
  route({
    method: 'POST',
    path: new RegExp(`^${C}/points/batch$`),
    operation: 'batch_update',
    handle: (e, c, b) => e.batch(e.collection(c), b),
  }),
  route({
    method: 'POST',
    path: new RegExp(`^${C}/points/delete$`),
    operation: 'delete_points',
    handle: (e, c, b) => (e.delete(e.collection(c), b), e.completed()),
  }),
  route({
    method: 'POST',
    path: new RegExp(`^${C}/points/payload$`),
    operation: 'set_payload',
    handle: (e, c, b) => (e.setPayload(e.collection(c), b), e.completed()),
  }),
  route({
    method: 'POST',
    path: new RegExp(`^${C}/points/count$`),
    operation: 'count_points',
    handle: (e, c, b) => ({
      count: e.filtered(
        e.collection(c),
        (b as S['CountRequest'] | undefined)?.filter as S['Filter'] | null,
      ).length,
    }),
  }),
  route({
    method: 'POST',
    path: new RegExp(`^${C}/points/scroll$`),
    operation: 'scroll_points',
    handle: (e, c, b) => scroll(e, e.collection(c), b),
  }),
  route({
    method: 'POST',
    path: new RegExp(`^${C}/points/query$`),
    operation: 'query_points',
    handle: (e, c, b) => query(e, e.collection(c), b),
  }),
  route({
    method: 'POST',
    path: new RegExp(`^${C}/points/query/batch$`),
    operation: 'query_batch_points',
    handle: (e, c, b) => b.searches.map((s) => query(e, e.collection(c), s)),
  }),
];

/** Kubernetes probes answer plain text and need no API key, as on a real server. */
const PROBES: Record<string, string> = {
  '/healthz': 'healthz check passed',
  '/livez': 'healthz check passed',
  '/readyz': 'all shards are ready',
};

export interface FakeQdrant {
  url: string;
  engine: FakeQdrantEngine;
  requests: Array<{ operation: string; collection: string; body: unknown; apiKey?: string }>;
  violations: Array<{ operation: string; errors: string[]; body: unknown }>;
  unsupported: string[];
  /** While true, requests are held unanswered (a hung server) until the client gives up. */
  hang: boolean;
  close(): Promise<void>;
}

let validators: Record<string, (body: unknown) => string[]> | undefined;

export async function startFakeQdrant(
  options: { apiKey?: string; strictMode?: boolean } = {},
): Promise<FakeQdrant> {
  validators ??= qdrantRequestValidators(Object.values(BODY_SCHEMAS));
  const check = validators;
  const engine = new FakeQdrantEngine(options.strictMode ?? true);
  const fake: Omit<FakeQdrant, 'url' | 'close'> = {
    engine,
    requests: [],
    violations: [],
    unsupported: [],
    hang: false,
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, error: string) =>
    send(res, status, { status: { error }, time: 0.0001 });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    if (fake.hang) {
      return hold(res, 120_000);
    }
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    if (req.method === 'GET' && PROBES[path]) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      return res.end(PROBES[path]);
    }
    const apiKey = req.headers['api-key'] as string | undefined;
    if (options.apiKey && apiKey !== options.apiKey) {
      return fail(res, 401, 'Must provide an API key or an Authorization bearer token');
    }
    const found = ROUTES.map((r) => ({
      r,
      m: r.method === req.method ? r.path.exec(path) : null,
    })).find((x) => x.m);
    if (!found?.m) {
      fake.unsupported.push(`${req.method} ${path}`);
      return fail(res, 404, `fake Qdrant: no route for ${req.method} ${path}`);
    }
    const { r, m } = found;
    const collection = decodeURIComponent(m[1]);
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch (error) {
      return fail(res, 400, `Format error in JSON body: ${(error as Error).message}`);
    }
    fake.requests.push({ operation: r.operation, collection, body, apiKey });
    const schema = BODY_SCHEMAS[r.operation as BodyOp] as string | undefined;
    const errors = schema ? check[schema](body) : [];
    if (errors.length) {
      fake.violations.push({ operation: r.operation, errors, body });
      return fail(res, 400, `Format error in JSON body: ${errors.join('; ')}`);
    }
    try {
      const result = r.handle(engine, collection, body as never);
      send(res, 200, { result, status: 'ok', time: 0.0001 });
    } catch (error) {
      if (error instanceof QdrantHttpError) {
        if (error.message.startsWith('fake Qdrant')) {
          fake.unsupported.push(`${r.operation}: ${error.message}`);
        }
        return fail(res, error.status, error.message);
      }
      throw error;
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      fail(res, 500, `Service internal error: ${String(error)}`),
    );
  });
  const url = await listenOnLoopback(server);
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return Object.assign(fake, { url, close });
}
