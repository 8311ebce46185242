import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { API_KEY_CHALLENGE, ApiKeyService } from '../../auth/api-key.service';
import { ApiKeyRing, type Principal } from '../../auth/api-keys';
import { AuthenticationError } from '../../auth/auth.errors';
import { principalOf, setPrincipal } from '../../auth/principal';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

export const VAPI_SECRET_HEADER = 'x-vapi-secret';

/** Prefix of a Vapi secret's name as a principal, so logs and limits tell it from a key. */
const VAPI_PRINCIPAL_PREFIX = 'vapi:';

/**
 * The Vapi route is `@Public()` for the global key guard and admits a caller here instead:
 *  - `X-Vapi-Secret` matching one of VAPI_SECRETS (hashed, compared in constant time with
 *    every entry, like API keys); the call is scoped to that secret's locations exactly as
 *    a bound key's, narrowed further by a bound API key sent alongside;
 *  - or one of our API keys (the global guard has already attached its principal, so its
 *    location binding scopes the read exactly as on `/context`);
 *  - or anything, in the open embedded mode (no API keys and no Vapi secret configured).
 * A wrong secret is refused even when a key is present: it is a misconfiguration to surface.
 */
@Injectable()
export class VapiAuthGuard implements CanActivate {
  private readonly secrets: ApiKeyRing;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly keys: ApiKeyService,
  ) {
    this.secrets = new ApiKeyRing(config.adapters.vapiSecrets);
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const presented = request.headers[VAPI_SECRET_HEADER];
    // An empty header is no credential (an assistant without a secret), as before.
    if (presented !== undefined && presented !== '') {
      const secret = typeof presented === 'string' ? this.secrets.match(presented) : undefined;
      if (!secret) {
        throw new AuthenticationError(
          'invalid_vapi_secret',
          'X-Vapi-Secret matches no configured Vapi secret (VAPI_SECRETS).',
        );
      }
      setPrincipal(request, narrowed(secret, principalOf(request)));
      return true;
    }
    const identity = this.keys.identify(request);
    if (identity.kind === 'key' || (!this.keys.enabled && !this.secrets.enabled)) {
      return true;
    }
    void http.getResponse<FastifyReply>().header('www-authenticate', API_KEY_CHALLENGE);
    throw (
      this.keys.rejection(identity) ??
      new AuthenticationError(
        'missing_api_key',
        'Send X-Vapi-Secret (the assistant server secret) or `Authorization: Bearer <key>`.',
      )
    );
  }
}

/**
 * The secret's principal, narrowed to the locations of an API key sent with it: both
 * credentials must allow a location for the call to read it.
 */
export function narrowed(secret: Principal, key: Principal | undefined): Principal {
  const name = `${VAPI_PRINCIPAL_PREFIX}${secret.keyName}`;
  if (!key?.locations) {
    return { keyName: name, locations: secret.locations };
  }
  const keyLocations = key.locations;
  return {
    keyName: name,
    locations: secret.locations
      ? secret.locations.filter((l) => keyLocations.includes(l))
      : [...keyLocations],
  };
}
