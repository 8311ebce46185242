import { createHash, timingSafeEqual } from 'node:crypto';

import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { API_KEY_CHALLENGE, ApiKeyService } from '../../auth/api-key.service';
import { AuthenticationError } from '../../auth/auth.errors';
import { APP_CONFIG, type AppConfig } from '../../config/app-config';

export const VAPI_SECRET_HEADER = 'x-vapi-secret';

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/**
 * The Vapi route is `@Public()` for the global key guard and admits a caller here instead:
 *  - `X-Vapi-Secret` equal to VAPI_SECRET (digests compared in constant time, so neither the
 *    length nor a prefix leaks); the caller is unbound unless it also sent a bound key;
 *  - or one of our API keys (the global guard has already attached its principal, so its
 *    location binding scopes the read exactly as on `/context`);
 *  - or anything, in the open embedded mode (no API keys and no VAPI_SECRET configured).
 * A wrong secret is refused even when a key is present: it is a misconfiguration to surface.
 */
@Injectable()
export class VapiAuthGuard implements CanActivate {
  private readonly secret: Buffer | undefined;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly keys: ApiKeyService,
  ) {
    this.secret = config.adapters.vapiSecret ? sha256(config.adapters.vapiSecret) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const presented = request.headers[VAPI_SECRET_HEADER];
    if (typeof presented === 'string' && presented.length > 0) {
      if (this.secret && timingSafeEqual(sha256(presented), this.secret)) {
        return true;
      }
      throw new AuthenticationError(
        'invalid_vapi_secret',
        'X-Vapi-Secret does not match the configured VAPI_SECRET.',
      );
    }
    const identity = this.keys.identify(request);
    if (identity.kind === 'key' || (!this.keys.enabled && !this.secret)) {
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
