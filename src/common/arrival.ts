import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/**
 * When each request arrived, as `performance.now()`, stamped by the first `onRequest` hook
 * (see `configureApp`), by request object: nothing is added to Fastify's request type.
 * Deadlines count from here, so body parsing, guards, the rate limiter (a Redis round trip
 * when shared) and validation spend the caller's budget like any pipeline stage does.
 */
const arrivals = new WeakMap<object, number>();

export function stampArrival(request: object): void {
  arrivals.set(request, performance.now());
}

/** The arrival stamp; a request that never went through the hook (none in the app) is "now". */
export function arrivalOf(request: object): number {
  return arrivals.get(request) ?? performance.now();
}

/** Injects the request's arrival time (`performance.now()` clock) into a route handler. */
export const ArrivedAt = createParamDecorator((_data: unknown, ctx: ExecutionContext): number =>
  arrivalOf(ctx.switchToHttp().getRequest<object>()),
);
