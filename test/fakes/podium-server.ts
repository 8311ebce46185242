import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { hold, listenOnLoopback, readBody } from './loopback';

/**
 * A loopback Podium: the OAuth2 token endpoint and the v4 "Retrieve a contact" endpoint,
 * with Podium's JSON shapes and error envelope. Test code only.
 *
 * - `POST /oauth/token`: the refresh-token grant (JSON body, as Podium's sample apps send it,
 *   or form-encoded per RFC 6749) → `{ access_token, refresh_token, token_type, expires_in }`;
 *   errors are OAuth's `{ error, error_description }` (400 `invalid_grant`, 401 `invalid_client`).
 * - `GET /v4/contacts/{identifier}` (conversation uid, E.164 phone or email, URL-encoded) →
 *   `{ data: contact, metadata: { url } }`; errors are Podium's `{ code, message, moreInfo }`
 *   (401 `unauthenticated`, 404 `resource_not_found`, 429 `rate_limit`, 500
 *   `internal_server_error`, 400 `invalid_header_version`, 404 `route_not_found`).
 */

/** A contact channel as Podium returns it. */
export interface PodiumWireChannel {
  type: 'PHONE' | 'EMAIL';
  identifier: string;
  label: string | null;
  transactionalOptedOutAt: string | null;
  marketingOptedInLocationUids: string[];
  createdAt: string;
  updatedAt: string;
}

/** A contact as `GET /v4/contacts/{identifier}` returns it in `data`. */
export interface PodiumWireContact {
  uid: string;
  name: string | null;
  address: null;
  attributes: unknown[];
  tags: unknown[];
  channels: PodiumWireChannel[];
  phoneNumbers: string[];
  emails: string[];
  locations: Array<{ uid: string }>;
  conversations: Array<{ uid: string }>;
  organization: { uid: string };
  createdAt: string;
  updatedAt: string;
}

/** Shorthand for building a contact in Podium's shape. */
export interface PodiumContactSpec {
  uid?: string;
  name?: string;
  phone?: string;
  email?: string;
  /** ISO time the phone replied STOP; omitted → not opted out. */
  phoneOptedOutAt?: string;
  emailOptedOutAt?: string;
  locationUids?: string[];
  conversationUids?: string[];
}

const ORGANIZATION_UID = '7f1f5c2e-0b8d-4c1e-9a61-3d1f0e2b4a10';
const CREATED_AT = '2025-03-14T16:20:00Z';

/** Builds a contact the way Podium serialises it (every documented field present). */
export function podiumContact(spec: PodiumContactSpec): PodiumWireContact {
  const channel = (type: 'PHONE' | 'EMAIL', identifier: string, optedOutAt?: string) => ({
    type,
    identifier,
    label: null,
    transactionalOptedOutAt: optedOutAt ?? null,
    marketingOptedInLocationUids: [],
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
  });
  return {
    uid: spec.uid ?? randomUUID(),
    name: spec.name ?? null,
    address: null,
    attributes: [],
    tags: [],
    channels: [
      ...(spec.phone ? [channel('PHONE', spec.phone, spec.phoneOptedOutAt)] : []),
      ...(spec.email ? [channel('EMAIL', spec.email, spec.emailOptedOutAt)] : []),
    ],
    phoneNumbers: spec.phone ? [spec.phone] : [],
    emails: spec.email ? [spec.email] : [],
    locations: (spec.locationUids ?? []).map((uid) => ({ uid })),
    conversations: (spec.conversationUids ?? []).map((uid) => ({ uid })),
    organization: { uid: ORGANIZATION_UID },
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
  };
}

/** One-shot behaviour for the next contact request(s), consumed in order. */
export type PodiumScript =
  | { status: 429; retryAfter?: string }
  /** As if the access token had expired server-side, for this one request. */
  | { status: 401 }
  | { status: 500 | 502 | 503 }
  | { delayMs: number }
  | { hang: true }
  /**
   * Looks the contact up on arrival, then sends that answer once `release` resolves: a
   * lookup in flight while the contact changes (answers what Podium held when it was asked).
   */
  | { answerAfter: Promise<void> };

export interface FakePodium {
  /** Value for PODIUM_BASE_URL (`…/v4`). */
  baseUrl: string;
  /** Value for PODIUM_TOKEN_URL. */
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The refresh token the fake accepts first (PODIUM_REFRESH_TOKEN). */
  refreshToken: string;
  /** Persistent behaviour of the contacts endpoint, after the script runs out. */
  mode: 'normal' | 'hang' | 'fail';
  /** Extra latency for every contact answer in `normal` mode. */
  delayMs: number;
  /** Latency of the token endpoint. */
  tokenDelayMs: number;
  /** The token endpoint answers `invalid_grant` to every refresh. */
  rejectRefreshTokens: boolean;
  /** `expires_in` of issued access tokens, in seconds. */
  accessTokenTtlS: number;
  /** Requests to the token endpoint (any outcome). */
  tokenRequests: number;
  /** Access tokens issued. */
  tokenRefreshes: number;
  /** Every contact request, in arrival order. */
  contactRequests: Array<{ identifier: string; authorization?: string; podiumVersion?: string }>;
  /** Every access and refresh token ever issued (to prove none leak anywhere). */
  issuedSecrets(): string[];
  upsert(...contacts: PodiumWireContact[]): void;
  /** Deletes a contact, as deleting it in Podium would (later lookups get 404). */
  remove(uid: string): void;
  script(...steps: PodiumScript[]): void;
  /** Every access token issued so far now gets 401 `unauthenticated`. */
  expireAccessTokens(): void;
  close(): Promise<void>;
}

const MORE_INFO = 'https://docs.podium.com/docs/errors#';
const VERSION = /^\d{4}\.\d{2}\.\d{2}$/;

/** Starts the fake. With `rotateRefreshTokens`, each refresh invalidates the token it used. */
export async function startFakePodium(
  options: { rotateRefreshTokens?: boolean } = {},
): Promise<FakePodium> {
  const contacts = new Map<string, PodiumWireContact>();
  const steps: PodiumScript[] = [];
  const accessTokens = new Map<string, number>(); // token → expiry (ms)
  const refreshTokens = new Set<string>();
  const issued: string[] = [];
  const secret = (prefix: string) => `${prefix}_${randomBytes(18).toString('base64url')}`;
  const initialRefresh = secret('prt');
  refreshTokens.add(initialRefresh);
  issued.push(initialRefresh);

  const send = (res: ServerResponse, status: number, body: unknown, headers = {}) => {
    if (res.destroyed) {
      return;
    }
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': randomUUID(),
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
  const podiumError = (
    res: ServerResponse,
    status: number,
    code: string,
    message: string,
    headers = {},
  ) => send(res, status, { code, message, moreInfo: MORE_INFO + code }, headers);

  const find = (identifier: string): PodiumWireContact | undefined =>
    [...contacts.values()].find(
      (c) =>
        c.phoneNumbers.includes(identifier) ||
        c.emails.some((e) => e.toLowerCase() === identifier.toLowerCase()) ||
        c.channels.some((ch) => ch.identifier === identifier) ||
        c.conversations.some((conv) => conv.uid === identifier),
    );

  const fake: FakePodium = {
    baseUrl: '',
    tokenUrl: '',
    clientId: 'client_7d1c0f',
    clientSecret: secret('pcs'),
    refreshToken: initialRefresh,
    mode: 'normal',
    delayMs: 0,
    tokenDelayMs: 0,
    rejectRefreshTokens: false,
    accessTokenTtlS: 36_000,
    tokenRequests: 0,
    tokenRefreshes: 0,
    contactRequests: [],
    issuedSecrets: () => [...issued],
    upsert: (...list) => list.forEach((c) => contacts.set(c.uid, c)),
    remove: (uid) => contacts.delete(uid),
    script: (...s) => steps.push(...s),
    expireAccessTokens: () => accessTokens.forEach((_, token) => accessTokens.set(token, 0)),
    close: () => Promise.resolve(),
  };

  const token = async (req: IncomingMessage, res: ServerResponse) => {
    fake.tokenRequests++;
    const raw = await readBody(req);
    const form = (req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')
      ? Object.fromEntries(new URLSearchParams(raw))
      : ((): Record<string, unknown> => {
          try {
            return JSON.parse(raw) as Record<string, unknown>;
          } catch {
            return {};
          }
        })();
    if (fake.tokenDelayMs > 0) {
      await hold(res, fake.tokenDelayMs);
    }
    const oauthError = (status: number, error: string, description: string) =>
      send(res, status, { error, error_description: description }, { 'cache-control': 'no-store' });
    if (form.grant_type !== 'refresh_token') {
      return oauthError(400, 'unsupported_grant_type', 'The grant type is not supported.');
    }
    if (form.client_id !== fake.clientId || form.client_secret !== fake.clientSecret) {
      return oauthError(401, 'invalid_client', 'Client authentication failed.');
    }
    const presented = typeof form.refresh_token === 'string' ? form.refresh_token : '';
    if (fake.rejectRefreshTokens || !refreshTokens.has(presented)) {
      return oauthError(400, 'invalid_grant', 'The refresh token is invalid, expired or revoked.');
    }
    const accessToken = secret('pat');
    accessTokens.set(accessToken, Date.now() + fake.accessTokenTtlS * 1000);
    let refreshToken = presented;
    if (options.rotateRefreshTokens) {
      refreshTokens.delete(presented);
      refreshToken = secret('prt');
      refreshTokens.add(refreshToken);
    }
    issued.push(accessToken, refreshToken);
    fake.tokenRefreshes++;
    send(
      res,
      200,
      {
        access_token: accessToken,
        refresh_token: refreshToken,
        token_type: 'Bearer',
        expires_in: fake.accessTokenTtlS,
        scope: 'read_contacts read_messages',
      },
      { 'cache-control': 'no-store', pragma: 'no-cache' },
    );
  };

  const contact = async (req: IncomingMessage, res: ServerResponse, identifier: string) => {
    fake.contactRequests.push({
      identifier,
      authorization: req.headers.authorization,
      podiumVersion: req.headers['podium-version'] as string | undefined,
    });
    const step = steps.shift();
    if (step && 'hang' in step) {
      return hold(res, 3_600_000);
    }
    if (step && 'answerAfter' in step) {
      const snapshot = find(identifier);
      await Promise.race([step.answerAfter, hold(res, 60_000)]);
      return snapshot
        ? send(res, 200, {
            data: snapshot,
            metadata: {
              url: `https://api.podium.com/v4/contacts/${encodeURIComponent(identifier)}`,
            },
          })
        : podiumError(res, 404, 'resource_not_found', 'Contact not found.');
    }
    if (step && 'delayMs' in step) {
      await hold(res, step.delayMs);
    } else if (step?.status === 429) {
      const headers = step.retryAfter === undefined ? {} : { 'retry-after': step.retryAfter };
      return podiumError(
        res,
        429,
        'rate_limit',
        'Rate limit exceeded. Please retry later.',
        headers,
      );
    } else if (step?.status === 401) {
      return podiumError(res, 401, 'unauthenticated', 'The access token is expired.');
    } else if (step) {
      return podiumError(res, step.status, 'internal_server_error', 'Something went wrong.');
    }
    switch (fake.mode) {
      case 'hang':
        return hold(res, 3_600_000);
      case 'fail':
        return podiumError(res, 500, 'internal_server_error', 'Something went wrong.');
      case 'normal':
        break;
    }
    if (fake.delayMs > 0) {
      await hold(res, fake.delayMs);
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
    if ((accessTokens.get(bearer) ?? 0) <= Date.now()) {
      return podiumError(res, 401, 'unauthenticated', 'The access token is invalid or expired.');
    }
    const version = req.headers['podium-version'];
    if (typeof version === 'string' && !VERSION.test(version)) {
      return podiumError(res, 400, 'invalid_header_version', `Invalid podium-version: ${version}`);
    }
    const found = find(identifier);
    if (!found) {
      return podiumError(res, 404, 'resource_not_found', 'Contact not found.');
    }
    send(res, 200, {
      data: found,
      metadata: { url: `https://api.podium.com/v4/contacts/${encodeURIComponent(identifier)}` },
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/oauth/token') {
      return token(req, res);
    }
    const match = /^\/v4\/contacts\/([^/]+)$/.exec(path);
    if (req.method === 'GET' && match) {
      return contact(req, res, decodeURIComponent(match[1]));
    }
    podiumError(res, 404, 'route_not_found', 'no Route matched with those values');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) =>
      podiumError(res, 500, 'internal_server_error', error.message),
    );
  });
  const url = await listenOnLoopback(server);
  fake.baseUrl = `${url}/v4`;
  fake.tokenUrl = `${url}/oauth/token`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

/** The env that points `PODIUM_PROVIDER=api` at a fake Podium, with its OAuth client. */
export const podiumApiEnv = (podium: {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}): Record<string, string> => ({
  PODIUM_PROVIDER: 'api',
  PODIUM_BASE_URL: podium.baseUrl,
  PODIUM_TOKEN_URL: podium.tokenUrl,
  PODIUM_CLIENT_ID: podium.clientId,
  PODIUM_CLIENT_SECRET: podium.clientSecret,
  PODIUM_REFRESH_TOKEN: podium.refreshToken,
});
