import { type IncomingHttpHeaders } from 'node:http';

import { Inject, Injectable } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ApiKeyRing, type Identity } from './api-keys';
import { AuthenticationError } from './auth.errors';

/** `WWW-Authenticate` for a 401 from a key-protected route (RFC 6750 §3). */
export const API_KEY_CHALLENGE = 'Bearer realm="context-bridge"';

/**
 * Resolves a request's credentials against the configured key hashes, once per request
 * (the rate limiter, the guard and the ingest admission hook all ask).
 */
@Injectable()
export class ApiKeyService {
  private readonly ring: ApiKeyRing;
  private readonly identities = new WeakMap<object, Identity>();

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.ring = new ApiKeyRing(config.security.apiKeys);
  }

  /** False without keys: the service runs open (refused at boot when NODE_ENV=production). */
  get enabled(): boolean {
    return this.ring.enabled;
  }

  identify(request: { headers: IncomingHttpHeaders }): Identity {
    let identity = this.identities.get(request);
    if (!identity) {
      identity = this.ring.identify(request.headers);
      this.identities.set(request, identity);
    }
    return identity;
  }

  /** The 401 a key-protected route answers for this identity; `undefined` lets it through. */
  rejection(identity: Identity): AuthenticationError | undefined {
    if (!this.enabled || identity.kind === 'key') {
      return undefined;
    }
    return identity.kind === 'missing'
      ? new AuthenticationError(
          'missing_api_key',
          'This endpoint needs an API key: send `Authorization: Bearer <key>` or `x-api-key: <key>`.',
        )
      : new AuthenticationError('invalid_api_key', 'The API key is not valid.');
  }
}
