import { randomBytes } from 'node:crypto';

import { keyedHash } from '@app/common';

/**
 * Contact ids are phone numbers or e-mail addresses under `PODIUM_PROVIDER=api`, and some
 * routes carry them in the URL: ours (`/contacts/{id}/history`, `/v1/vector_stores/{id}/search`)
 * and Podium's (`/v4/contacts/{id}`). Logs and spans get their keyed hash instead.
 */

/** The path segment after one of these is an id... */
const ID_AFTER = new Set(['contacts', 'vector_stores']);
/** ...unless it is one of our route names. */
const ROUTE_WORDS = new Set(['forget', 'history', 'search']);
/** A route template's parameter (`:contact_uid`), as in span names and `http.route`. */
const ROUTE_PARAM = /^:[A-Za-z_]+$/;
/** Query parameters whose short numeric values are kept as they are. */
const PLAIN_QUERY = new Set(['limit']);
const PLAIN_QUERY_VALUE = /^\d{1,6}$/;
const PLAIN_QUERY_KEY = /^[A-Za-z0-9_.-]{1,32}$/;
/** Scheme and authority, path, query, fragment (absolute URLs of outgoing calls, or paths). */
const URL_PARTS = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)?([^?#]*)(\?[^#]*)?(#.*)?$/i;
/**
 * Anything shaped like an e-mail address or an E.164 phone number, wherever it appears. The
 * lookbehinds let a match start only where a run starts: linear time on hostile input (without
 * them, a long run with no `@` is quadratic).
 */
const CONTACT_LIKE =
  /(?<![^\s@/?#&=:;,'"<>()[\]])[^\s@/?#&=:;,'"<>()[\]]+@[^\s@/?#&=;,'"<>()[\]]+\.[A-Za-z]{2,}|(?<![\d+])\+\d[\d ().-]{6,20}\d/g;
/** A phone number spelled any way, as a whole path segment. */
const PHONE_SEGMENT = /^\+?[\d ().-]{7,}$/;

function decode(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

function decodePath(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * What telemetry writes instead of a customer identifier: `h:` and 16 hex characters of
 * HMAC-SHA256 under the telemetry key. The same id always gives the same hash (a request's
 * lines and spans join up; an operator who holds the key can compute it to search for one).
 */
export class TelemetryIds {
  constructor(private readonly key: string | Buffer) {}

  /** The hash form of one identifier (decoded: `%40` and `@` hash the same). */
  id(value: string): string {
    return `h:${keyedHash(this.key, value)}`;
  }

  /**
   * A URL or path (or a span name such as `GET /contacts/:contact_uid/history`) with the id
   * segments of known routes, anything shaped like a contact id, and every query value but a
   * short `limit` replaced by hashes. Userinfo is dropped.
   */
  url(url: string): string {
    const parts = URL_PARTS.exec(url);
    if (!parts) {
      return this.text(url);
    }
    const [, origin = '', path = '', query, fragment] = parts;
    const host = origin.replace(/\/\/[^/@]*@/, '//');
    return `${host}${this.path(path)}${query ? this.query(query) : ''}${fragment ? '#' : ''}`;
  }

  /** Free text with every e-mail- or E.164-shaped run replaced by its hash. */
  text(text: string): string {
    return text.replace(CONTACT_LIKE, (match) => this.id(match));
  }

  private path(path: string): string {
    const segments = path.split('/');
    return segments
      .map((segment, i) => {
        if (segment === '' || ROUTE_PARAM.test(segment)) {
          return segment;
        }
        const decoded = decodePath(segment);
        const afterIdWord = i > 0 && ID_AFTER.has(segments[i - 1]) && !ROUTE_WORDS.has(decoded);
        if (afterIdWord || decoded.includes('@') || PHONE_SEGMENT.test(decoded)) {
          return this.id(decoded);
        }
        return this.text(segment);
      })
      .join('/');
  }

  private query(query: string): string {
    const pairs = query
      .slice(1)
      .split('&')
      .filter((pair) => pair !== '')
      .map((pair) => {
        const at = pair.indexOf('=');
        const rawKey = at < 0 ? pair : pair.slice(0, at);
        const key = PLAIN_QUERY_KEY.test(rawKey) ? rawKey : this.id(decode(rawKey));
        if (at < 0) {
          return key;
        }
        const value = pair.slice(at + 1);
        const plain = PLAIN_QUERY.has(key) && PLAIN_QUERY_VALUE.test(value);
        return `${key}=${plain ? value : this.id(decode(value))}`;
      });
    return `?${pairs.join('&')}`;
  }
}

/** One random key per process, for a deployment that set none (see `telemetryIds`). */
let processKey: Buffer | undefined;
const byKey = new Map<string, TelemetryIds>();

/**
 * The process's `TelemetryIds` for `TELEMETRY_HASH_KEY`; without one, a random per-process
 * key: hashes still hide the ids, but do not match across restarts or replicas.
 */
export function telemetryIds(hashKey?: string): TelemetryIds {
  const name = hashKey ?? '';
  let ids = byKey.get(name);
  if (!ids) {
    processKey ??= randomBytes(32);
    ids = new TelemetryIds(hashKey ?? processKey);
    byKey.set(name, ids);
  }
  return ids;
}
