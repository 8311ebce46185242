import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { type ApiScope } from '../config/api-key-entries';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { API_KEY_CHALLENGE, ApiKeyService } from './api-key.service';
import { type Principal } from './api-keys';
import { InsufficientScopeError } from './auth.errors';
import { setPrincipal } from './principal';
import { AUTH_POLICY, type AuthPolicy } from './public.decorator';
import { RateLimiter } from './rate-limiter';
import { hasScope, REQUIRED_SCOPE } from './scopes';

/**
 * The global guard (APP_GUARD) of every controller route, in this order:
 *  1. identify the caller from `Authorization: Bearer` / `x-api-key` (hash, constant time);
 *  2. rate-limit it, by key name when the key is valid, else by client IP, so failed
 *     attempts are limited too;
 *  3. reject a missing (401 `missing_api_key`) or wrong (401 `invalid_api_key`) key, unless
 *     the route is `@Public()` or no key is configured (the open embedded mode);
 *  4. reject a key without the route's `@RequireScope()` (403 `insufficient_scope`; `admin`
 *     when the route names none; any key for `/metrics`), also on a public route that
 *     names a scope when a key is presented there.
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
    const scope = this.reflector.getAllAndOverride<ApiScope | undefined>(REQUIRED_SCOPE, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (!this.requiresKey(policy)) {
      if (scope && identity.kind === 'key') {
        this.assertScope(identity.principal, scope, http.getResponse<FastifyReply>());
      }
      return true;
    }
    const rejection = this.keys.rejection(identity);
    if (rejection) {
      void http.getResponse<FastifyReply>().header('www-authenticate', API_KEY_CHALLENGE);
      throw rejection;
    }
    if (identity.kind === 'key' && policy?.access !== 'metrics') {
      this.assertScope(identity.principal, scope ?? 'admin', http.getResponse<FastifyReply>());
    }
    return true;
  }

  private assertScope(principal: Principal, scope: ApiScope, reply: FastifyReply): void {
    if (!hasScope(principal, scope)) {
      // RFC 6750 §3.1: the challenge names the scope that would be enough.
      void reply.header(
        'www-authenticate',
        `${API_KEY_CHALLENGE}, error="insufficient_scope", scope="${scope}"`,
      );
      throw new InsufficientScopeError(scope);
    }
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
