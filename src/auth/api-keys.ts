import { createHash, timingSafeEqual } from 'node:crypto';

import { type ApiKeyEntry, type ApiScope } from '../config/api-key-entries';

/** Who made a request, once its key matched. Never holds the key or its hash. */
export interface Principal {
  keyName: string;
  /** `null`: every location. */
  locations: readonly string[] | null;
  /** Absent: every scope (a key configured without scopes, a Vapi secret). */
  scopes?: readonly ApiScope[];
}

/** What the credentials of one request amount to. */
export type Identity =
  { kind: 'key'; principal: Principal } | { kind: 'missing' } | { kind: 'invalid' };

/** Longer than any key we issue by far; longer headers are rejected without hashing. */
const MAX_PRESENTED_LENGTH = 512;

/**
 * Matches presented keys against the configured hashes. The presented key is hashed and
 * compared with every entry in constant time, without stopping at the first match, so
 * neither the content nor the position of a key shows in the response time.
 */
export class ApiKeyRing {
  private readonly entries: Array<{ digest: Buffer; principal: Principal }>;

  constructor(keys: readonly ApiKeyEntry[]) {
    this.entries = keys.map((k) => ({
      digest: Buffer.from(k.sha256, 'hex'),
      principal: {
        keyName: k.name,
        locations: k.locations ? [...k.locations] : null,
        ...(k.scopes ? { scopes: [...k.scopes] } : {}),
      },
    }));
  }

  /** False when no key is configured: the service runs open. */
  get enabled(): boolean {
    return this.entries.length > 0;
  }

  /** How many keys the ring holds (the reload log says it; names stay in the entries). */
  get size(): number {
    return this.entries.length;
  }

  match(presented: string): Principal | undefined {
    if (presented.length === 0 || presented.length > MAX_PRESENTED_LENGTH) {
      return undefined;
    }
    const digest = createHash('sha256').update(presented, 'utf8').digest();
    let found: Principal | undefined;
    for (const entry of this.entries) {
      if (timingSafeEqual(digest, entry.digest) && !found) {
        found = entry.principal;
      }
    }
    return found;
  }

  /** The identity behind `Authorization: Bearer <key>` or `x-api-key: <key>`. */
  identify(headers: Record<string, string | string[] | undefined>): Identity {
    const presented = presentedKey(headers);
    if (presented === undefined) {
      return { kind: 'missing' };
    }
    const principal = presented === null ? undefined : this.match(presented);
    return principal ? { kind: 'key', principal } : { kind: 'invalid' };
  }
}

/**
 * The key a request presents: `x-api-key` first, then a Bearer token. `undefined` when none
 * is sent, `null` when what is sent cannot be a key (a repeated header, another scheme).
 */
function presentedKey(
  headers: Record<string, string | string[] | undefined>,
): string | null | undefined {
  const header = headers['x-api-key'];
  if (header !== undefined) {
    return typeof header === 'string' ? header.trim() : null;
  }
  const authorization = headers.authorization;
  if (authorization === undefined) {
    return undefined;
  }
  if (typeof authorization !== 'string') {
    return null;
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return match ? match[1] : null;
}
