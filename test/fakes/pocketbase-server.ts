import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { hold, listenOnLoopback, readBody } from './loopback';

/** A stored record: `id` plus its field values (single relations hold an id, '' when empty). */
export type FakeRecord = { id: string } & Record<string, unknown>;

export interface FakeCollection {
  /** Field names besides `id`; filtering on any other name is a 400, as in PocketBase. */
  fields: string[];
  /** Relation fields → the collection they point to (what `expand` follows). */
  relations?: Record<string, string>;
  records: FakeRecord[];
}

/** Served to the next record or health request(s), in order, before normal service. */
export type ScriptedStep =
  { status: 400 | 401 | 403 | 404 | 429 | 500 | 503 } | { delayMs: number };

export interface FakePocketBase {
  url: string;
  requests: Array<{
    method: string;
    path: string;
    query: Record<string, string>;
    authorization?: string;
  }>;
  /** Why the fake refused a request PocketBase would accept but the fake does not model. */
  unsupported: string[];
  collections: Record<string, FakeCollection>;
  /** Invalidates every token issued so far, as a new server secret or superuser password does. */
  revokeTokens(): void;
  script(...steps: ScriptedStep[]): void;
  close(): Promise<void>;
}

/** The fixed id PocketBase ≥ 0.23 gives its `_superusers` system collection (the SDK checks it). */
const SUPERUSERS_ID = 'pbc_3142635823';
const MESSAGES: Record<number, string> = {
  400: 'Something went wrong while processing your request.',
  401: 'Missing or invalid authentication.',
  403: 'Only superusers can perform this action.',
  404: "The requested resource wasn't found.",
  429: 'Too Many Requests.',
  500: 'Something went wrong while processing your request.',
  503: 'Service Unavailable.',
};
/** Parameters PocketBase understands but this fake does not model: refused so a mismatch shows. */
const UNMODELLED_QUERY = new Set(['sort', 'fields']);

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');
const collectionId = (name: string) =>
  `pbc_${parseInt(createHash('sha1').update(name).digest('hex').slice(0, 8), 16)}`;

class Unsupported extends Error {}
class BadFilter extends Error {}

/**
 * A loopback PocketBase ≥ 0.23 for the official SDK: superuser `auth-with-password` issuing
 * HS256 JWTs with `exp`, records list (`filter`, `page`, `perPage`, `expand`, `skipTotal`)
 * and view (`expand`), `/api/health`, and PocketBase's `{status, message, data}` errors.
 * Collections are superuser-only (null API rules): a missing, expired or revoked token is a
 * guest and gets 403, as PocketBase answers. Filters: a subset of PocketBase's syntax (`=`,
 * `!=`, `&&`, `||`, parentheses, quoted text with fexpr's escaping); other valid syntax is a
 * 400 recorded in `unsupported`. An `expand` path that is not a relation is skipped silently,
 * as PocketBase does.
 */
export async function startFakePocketBase(
  options: {
    superuser?: { email: string; password: string };
    tokenTtlSeconds?: number;
    collections?: Record<string, FakeCollection>;
  } = {},
): Promise<FakePocketBase> {
  const superuser = options.superuser ?? {
    email: 'admin@example.com',
    password: 'pb-test-password',
  };
  const collections = options.collections ?? {};
  const requests: FakePocketBase['requests'] = [];
  const unsupported: string[] = [];
  const steps: ScriptedStep[] = [];
  let secret = randomBytes(32);
  const now = new Date().toISOString().replace('T', ' ');

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, message = MESSAGES[status], data = {}) =>
    send(res, status, { status, message, data });

  const sign = (payload: object) => {
    const head = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(payload))}`;
    return `${head}.${b64url(createHmac('sha256', secret).update(head).digest())}`;
  };
  const isSuperuser = (header: string | undefined): boolean => {
    const [head, body, signature] = (header ?? '').replace(/^Bearer\s+/i, '').split('.');
    if (!head || !body || !signature) {
      return false;
    }
    const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
    const given = Buffer.from(signature, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return false;
    }
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    return (
      claims.type === 'auth' &&
      claims.collectionId === SUPERUSERS_ID &&
      Number(claims.exp) > Date.now() / 1000
    );
  };

  const serialize = (
    name: string,
    record: FakeRecord,
    expand: ExpandTree,
  ): Record<string, unknown> => {
    const collection = collections[name];
    const out: Record<string, unknown> = {
      collectionId: collectionId(name),
      collectionName: name,
      created: now,
      updated: now,
      ...record,
    };
    const expanded: Record<string, unknown> = {};
    for (const [field, subtree] of expand) {
      const target = collection.relations?.[field];
      const value = record[field];
      if (!target || !collections[target]) {
        continue; // PocketBase logs and skips an expand path it cannot resolve
      }
      const find = (id: unknown) => collections[target].records.find((r) => r.id === id);
      if (Array.isArray(value)) {
        const found = value.map(find).filter((r): r is FakeRecord => r !== undefined);
        if (found.length > 0) {
          expanded[field] = found.map((r) => serialize(target, r, subtree));
        }
      } else if (find(value)) {
        expanded[field] = serialize(target, find(value) as FakeRecord, subtree);
      }
    }
    return Object.keys(expanded).length > 0 ? { ...out, expand: expanded } : out;
  };

  const records = (
    res: ServerResponse,
    name: string,
    id: string | undefined,
    query: URLSearchParams,
  ) => {
    const collection = collections[name];
    if (!collection) {
      return fail(res, 404, 'Missing collection context.');
    }
    const expand = expandTree(query.get('expand') ?? '');
    if (id !== undefined) {
      const record = collection.records.find((r) => r.id === id);
      return record ? send(res, 200, serialize(name, record, expand)) : fail(res, 404);
    }
    const refused = [...query.keys()].find((k) => UNMODELLED_QUERY.has(k));
    if (refused) {
      throw new Unsupported(`query parameter "${refused}"`);
    }
    const matches = parseFilter(query.get('filter') ?? '', ['id', ...collection.fields]);
    const all = collection.records.filter(matches);
    const page = Math.max(1, Number(query.get('page')) || 1);
    const perPage = Math.min(
      1000,
      Number(query.get('perPage')) > 0 ? Number(query.get('perPage')) : 30,
    );
    const skipTotal = ['1', 'true', 't'].includes((query.get('skipTotal') ?? '').toLowerCase());
    send(res, 200, {
      page,
      perPage,
      totalItems: skipTotal ? -1 : all.length,
      totalPages: skipTotal ? -1 : Math.ceil(all.length / perPage),
      items: all.slice((page - 1) * perPage, page * perPage).map((r) => serialize(name, r, expand)),
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
    });
    const auth = /^\/api\/collections\/_superusers\/auth-with-password$/.test(url.pathname);
    const record = /^\/api\/collections\/([^/]+)\/records(?:\/([^/]+))?$/.exec(url.pathname);
    if (req.method === 'POST' && auth) {
      const body = JSON.parse(raw || '{}') as { identity?: unknown; password?: unknown };
      if (!body.identity || !body.password) {
        const blank = { code: 'validation_required', message: 'Cannot be blank.' };
        return fail(res, 400, 'An error occurred while validating the submitted data.', {
          ...(body.identity ? {} : { identity: blank }),
          ...(body.password ? {} : { password: blank }),
        });
      }
      if (body.identity !== superuser.email || body.password !== superuser.password) {
        return fail(res, 400, 'Failed to authenticate.');
      }
      const id = 'su_fake_0000001';
      const ttl = options.tokenTtlSeconds ?? 86_400;
      const token = sign({
        collectionId: SUPERUSERS_ID,
        exp: Math.floor(Date.now() / 1000) + ttl,
        id,
        refreshable: true,
        type: 'auth',
      });
      const user = {
        collectionId: SUPERUSERS_ID,
        collectionName: '_superusers',
        id,
        email: superuser.email,
        emailVisibility: false,
        verified: true,
        created: now,
        updated: now,
      };
      return send(res, 200, { token, record: user });
    }
    if (req.method !== 'GET' || !(record || url.pathname === '/api/health')) {
      return fail(res, 404);
    }
    const step = steps.shift();
    if (step && 'delayMs' in step) {
      await hold(res, step.delayMs);
    } else if (step) {
      return fail(res, step.status);
    }
    if (!record) {
      return send(res, 200, { message: 'API is healthy.', code: 200, data: {} });
    }
    if (!isSuperuser(req.headers.authorization)) {
      return fail(res, 403);
    }
    records(
      res,
      decodeURIComponent(record[1]),
      record[2] && decodeURIComponent(record[2]),
      url.searchParams,
    );
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (error instanceof Unsupported) {
        unsupported.push(error.message);
      }
      fail(res, error instanceof Unsupported || error instanceof BadFilter ? 400 : 500);
    });
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    requests,
    unsupported,
    collections,
    revokeTokens: () => {
      secret = randomBytes(32);
    },
    script: (...s) => steps.push(...s),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** `a.b,a.c,d` → {a: {b: {}, c: {}}, d: {}}: what to expand at each level. */
type ExpandTree = Map<string, ExpandTree>;
function expandTree(param: string): ExpandTree {
  const root: ExpandTree = new Map();
  for (const path of param
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    let node = root;
    for (const field of path.split('.').slice(0, 6)) {
      const child: ExpandTree = node.get(field) ?? new Map();
      node.set(field, child);
      node = child;
    }
  }
  return root;
}

type Token = { kind: string; value: string };
type Predicate = (record: FakeRecord) => boolean;
const LEXEME =
  /[ \t\n]*(?:([()])|(["'])|([A-Za-z_@#][\w.@#:]*)|([0-9][0-9.]*)|([=!<>~?]+)|(&&|\|\|))/y;

/** fexpr's lexer; quoted text ends at the first matching quote not preceded by a backslash. */
function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (input.slice(at).trim()) {
    LEXEME.lastIndex = at;
    const m = LEXEME.exec(input);
    if (!m) {
      throw new BadFilter(`unexpected input at ${at}`);
    }
    at = LEXEME.lastIndex;
    const quote = m[2];
    if (quote) {
      let end = at;
      while (end < input.length && !(input[end] === quote && input[end - 1] !== '\\')) {
        end++;
      }
      if (end >= input.length) {
        throw new BadFilter('unterminated text');
      }
      tokens.push({ kind: 'text', value: input.slice(at, end).split(`\\${quote}`).join(quote) });
      at = end + 1;
    } else {
      const kind = m[1] ?? (m[3] ? 'ident' : m[4] ? 'number' : m[5] ? 'sign' : 'join');
      tokens.push({ kind, value: m[0].trim() });
    }
  }
  return tokens;
}

/** Parses the supported subset into a record predicate (`&&` binds tighter than `||`). */
function parseFilter(filter: string, fields: string[]): Predicate {
  const tokens = tokenize(filter);
  let at = 0;
  const take = (): Token => {
    const token = tokens[at++];
    if (!token) {
      throw new BadFilter('unexpected end');
    }
    return token;
  };
  const operand = (): ((record: FakeRecord) => string) => {
    const { kind, value } = take();
    if (kind === 'text' || kind === 'number' || value === 'true' || value === 'false') {
      return () => value;
    }
    if (kind !== 'ident') {
      throw new BadFilter(`unexpected ${value}`);
    }
    if (value === 'null') {
      return () => '';
    }
    if (/[.@#:]/.test(value)) {
      throw new Unsupported(`filter identifier "${value}"`);
    }
    if (!fields.includes(value)) {
      throw new BadFilter(`unknown field ${value}`); // PocketBase: invalid filter, 400
    }
    // Scalars only: the provider filters on single relations and text fields.
    return (r) => {
      const v = r[value];
      return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? `${v}` : '';
    };
  };
  const atom = (): Predicate => {
    if (tokens[at]?.kind === '(') {
      at++;
      const inner = or();
      if (take().kind !== ')') {
        throw new BadFilter('missing )');
      }
      return inner;
    }
    const left = operand();
    const sign = take();
    if (sign.kind !== 'sign') {
      throw new BadFilter(`expected an operator, got ${sign.value}`);
    }
    if (sign.value !== '=' && sign.value !== '!=') {
      throw new Unsupported(`filter operator "${sign.value}"`);
    }
    const right = operand();
    return sign.value === '=' ? (r) => left(r) === right(r) : (r) => left(r) !== right(r);
  };
  const chain =
    (op: string, part: () => Predicate, all: (parts: Predicate[]) => Predicate) => () => {
      const parts = [part()];
      while (tokens[at]?.value === op) {
        at++;
        parts.push(part());
      }
      return all(parts);
    };
  const and = chain('&&', atom, (parts) => (r) => parts.every((p) => p(r)));
  const or: () => Predicate = chain('||', and, (parts) => (r) => parts.some((p) => p(r)));
  if (tokens.length === 0) {
    return () => true;
  }
  const predicate = or();
  if (at < tokens.length) {
    throw new BadFilter(`unexpected ${tokens[at].value}`);
  }
  return predicate;
}

/**
 * The R42 curriculum schema (see the curriculum README): `employee_curriculum_state`
 * (`user` → users, `current_week` → curriculum_weeks), `curriculum_weeks` (`theme` → themes),
 * `themes` (`name`). Pass `current_week: ''` for an employee with no current week.
 */
export function curriculumCollections(seed: {
  themes: Array<{ id: string; name: string }>;
  weeks: Array<{ id: string; theme: string }>;
  states: Array<{ id: string; user: string; current_week: string }>;
}): Record<string, FakeCollection> {
  return {
    users: { fields: ['name'], records: seed.states.map((s) => ({ id: s.user, name: s.user })) },
    themes: { fields: ['name'], records: seed.themes.map((t) => ({ ...t })) },
    curriculum_weeks: {
      fields: ['theme'],
      relations: { theme: 'themes' },
      records: seed.weeks.map((w) => ({ ...w })),
    },
    employee_curriculum_state: {
      fields: ['user', 'current_week'],
      relations: { user: 'users', current_week: 'curriculum_weeks' },
      records: seed.states.map((s) => ({ ...s })),
    },
  };
}
