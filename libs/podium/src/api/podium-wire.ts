/**
 * Podium's wire format, as far as this client reads it. Sources: Podium's v4 OpenAPI
 * definitions (Contacts, `info.version` 2021.04.01), the error reference
 * (docs.podium.com/docs/errors) and Podium's own sample apps for the token exchange.
 * Every field is optional here because every field is checked before use: a field missing
 * from a response maps to `null`, never to an invented value.
 */

/** One entry of a contact's `channels[]`. */
export interface PodiumChannel {
  /** `PHONE` or `EMAIL` for the channels this client reads; Podium has other channel types. */
  type?: string | null;
  /** The address on that channel: an E.164 number (`+15555555555`) or an email address. */
  identifier?: string | null;
  label?: string | null;
  /** When the channel opted out of transactional messages (replied STOP); `null` if it has not. */
  transactionalOptedOutAt?: string | null;
  /** Marketing (campaign) consent, per location: separate from the transactional opt-out. */
  marketingOptedInLocationUids?: string[] | null;
  createdAt?: string | null;
  updatedAt?: string | null;
}

/** A reference to another resource, `{ uid }`. */
export interface PodiumRef {
  uid?: string | null;
}

/** The `contact` schema of `GET /v4/contacts/{identifier}`. */
export interface PodiumContact {
  uid?: string | null;
  name?: string | null;
  channels?: PodiumChannel[] | null;
  phoneNumbers?: string[] | null;
  emails?: string[] | null;
  locations?: PodiumRef[] | null;
  conversations?: PodiumRef[] | null;
  organization?: PodiumRef | null;
  createdAt?: string | null;
  updatedAt?: string | null;
}

/** The token endpoint's success body (RFC 6749 §5.1). */
export interface PodiumTokenResponse {
  access_token: string;
  /** Present when Podium rotates the refresh token; the new one replaces the old. */
  refresh_token?: string;
  /** Lifetime of the access token in seconds (Podium documents 10 hours). */
  expires_in?: number;
  token_type?: string;
  scope?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `data` of a contact response, or `undefined` when the body is not that shape. */
export function contactFromEnvelope(body: unknown): PodiumContact | undefined {
  return isObject(body) && isObject(body.data) ? body.data : undefined;
}

/** The token response, or `undefined` when the body carries no usable access token. */
export function tokenFromBody(body: unknown): PodiumTokenResponse | undefined {
  if (!isObject(body) || typeof body.access_token !== 'string' || body.access_token === '') {
    return undefined;
  }
  return {
    access_token: body.access_token,
    refresh_token:
      typeof body.refresh_token === 'string' && body.refresh_token !== ''
        ? body.refresh_token
        : undefined,
    expires_in:
      typeof body.expires_in === 'number' && body.expires_in > 0
        ? body.expires_in
        : typeof body.expires_in === 'string' && Number(body.expires_in) > 0
          ? Number(body.expires_in)
          : undefined,
  };
}

/** Podium's error `code` from a body, or `undefined`. */
export function errorCode(body: unknown): string | undefined {
  return isObject(body) && (typeof body.code === 'string' || typeof body.code === 'number')
    ? String(body.code)
    : undefined;
}

/** The OAuth error code (`invalid_grant`, `invalid_client`, …) from a token error body. */
export function oauthErrorCode(body: unknown): string | undefined {
  return isObject(body) && typeof body.error === 'string' ? body.error : undefined;
}

/** Parses JSON text, or `undefined` (error bodies are sometimes HTML from a proxy). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
