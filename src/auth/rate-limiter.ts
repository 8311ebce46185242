import { type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  normalizeIp,
  ThrottlerGuard,
  type ThrottlerLimitDetail,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type Principal } from './api-keys';
import { TooManyRequestsError } from './auth.errors';
import { principalOf } from './principal';

/** The limits are per minute. */
export const RATE_WINDOW_MS = 60_000;

/**
 * Who a request counts as, for the limiter and every per-caller share: its API key by name
 * (names, not keys: trackers end up in hashed storage keys), else its client IP, an IPv6
 * address by its /64 as the throttler normalises it.
 */
export function callerTracker(
  request: { ip?: unknown },
  principal: Principal | undefined = principalOf(request), // before the guard: the key it will find
): string {
  return principal ? `key:${principal.keyName}` : `ip:${normalizeIp(String(request.ip))}`;
}

/** The limit that applies to this request's caller; 0 is "no limit". */
export function callerLimit(config: AppConfig, context: ExecutionContext): number {
  const request = context.switchToHttp().getRequest<FastifyRequest>();
  return principalOf(request) ? config.limits.perKeyPerMinute : config.limits.perIpPerMinute;
}

/** One throttler, the default one, so the header is plain `Retry-After` (named ones get a suffix). */
export function throttlerOptions(
  config: AppConfig,
  storage: ThrottlerStorage,
): ThrottlerModuleOptions {
  return {
    throttlers: [{ ttl: RATE_WINDOW_MS, limit: (context) => callerLimit(config, context) }],
    storage,
  };
}

/**
 * Per-caller rate limits on @nestjs/throttler: a request with a valid key counts against
 * its key (RATE_LIMIT_PER_KEY_PER_MINUTE), any other request against its client IP
 * (RATE_LIMIT_PER_IP_PER_MINUTE), failed authentication attempts included. One bucket per
 * caller across all routes, not one per route. Not a global guard by itself: the auth guard
 * runs it after identifying the caller and before rejecting a bad key.
 */
@Injectable()
export class RateLimiter extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    super(options, storage, reflector);
  }

  /**
   * Counts a request refused before any guard runs (the `/ingest/*` admission hook answers a
   * bad key before the body is read) against its client IP, exactly as the guard would have:
   * same bucket, same headers. Throws the 429 when the IP is over its limit, so key guessing
   * there is throttled like everywhere else.
   */
  async countRefused(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    return this.count(request, reply, this.config.limits.perIpPerMinute);
  }

  /**
   * Counts a request no guard sees (a WebSocket upgrade, routed by Fastify itself) against its
   * caller as the guard would: its key when `setPrincipal` ran, else its client IP.
   */
  countUnguarded(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const { perKeyPerMinute, perIpPerMinute } = this.config.limits;
    return this.count(request, reply, principalOf(request) ? perKeyPerMinute : perIpPerMinute);
  }

  private async count(request: FastifyRequest, reply: FastifyReply, limit: number): Promise<void> {
    if (limit === 0) {
      return;
    }
    await this.handleRequest({
      context: new ExecutionContextHost([request, reply]),
      limit,
      ttl: RATE_WINDOW_MS,
      blockDuration: RATE_WINDOW_MS,
      throttler: { name: 'default', limit, ttl: RATE_WINDOW_MS },
      getTracker: (req) => this.getTracker(req),
      generateKey: (context, tracker, name) => this.generateKey(context, tracker, name),
    });
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(context.getType() !== 'http' || callerLimit(this.config, context) === 0);
  }

  protected override getTracker(request: Record<string, unknown>): Promise<string> {
    return Promise.resolve(callerTracker(request));
  }

  protected override generateKey(_context: ExecutionContext, tracker: string, name: string) {
    return `${name}:${tracker}`;
  }

  protected override throwThrottlingException(
    context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    const per = principalOf(context.switchToHttp().getRequest<object>()) ? 'API key' : 'client IP';
    throw new TooManyRequestsError(
      'rate_limited',
      `Rate limit of ${detail.limit} requests per minute per ${per} exceeded; retry in ${detail.timeToBlockExpire} s.`,
      detail.timeToBlockExpire,
    );
  }
}
