import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { API_KEY_CHALLENGE, ApiKeyService } from './api-key.service';
import { setPrincipal } from './principal';
import { AUTH_POLICY, type AuthPolicy } from './public.decorator';
import { RateLimiter } from './rate-limiter';

/**
 * The global guard (APP_GUARD) of every controller route, in this order:
 *  1. identify the caller from `Authorization: Bearer` / `x-api-key` (hash, constant time);
 *  2. rate-limit it, by key name when the key is valid, else by client IP, so failed
 *     attempts are limited too;
 *  3. reject a missing (401 `missing_api_key`) or wrong (401 `invalid_api_key`) key, unless
 *     the route is `@Public()` or no key is configured (the open embedded mode).
 * The principal (key name and bound locations) stays attached to the request for
 * `@CallerScope()`. Keys are never logged: the request logger only writes method, URL and id.
 */
@Injectable()
export class ServiceAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly keys: ApiKeyService,
    private readonly limiter: RateLimiter,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') {
      return true;
    }
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const policy = this.reflector.getAllAndOverride<AuthPolicy | undefined>(AUTH_POLICY, [
      context.getHandler(),
      context.getClass(),
    ]);
    const identity = this.keys.identify(request);
    if (identity.kind === 'key') {
      setPrincipal(request, identity.principal);
    }
    if (policy?.rateLimit !== false) {
      await this.limiter.canActivate(context);
    }
    if (!this.requiresKey(policy)) {
      return true;
    }
    const rejection = this.keys.rejection(identity);
    if (rejection) {
      void http.getResponse<FastifyReply>().header('www-authenticate', API_KEY_CHALLENGE);
      throw rejection;
    }
    return true;
  }

  private requiresKey(policy: AuthPolicy | undefined): boolean {
    switch (policy?.access) {
      case undefined:
        return true;
      case 'public':
        return false;
      case 'metrics':
        return this.config.security.metricsRequireKey;
    }
  }
}
