import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

import { type Principal } from './api-keys';

/**
 * The locations a caller may touch: `undefined` for every location (an unbound key, or the
 * open mode without keys), else the `location_uid`s its key is bound to.
 */
export type LocationScope = readonly string[] | undefined;

/** Principals by request object: nothing is added to Fastify's request type. */
const principals = new WeakMap<object, Principal>();

export function setPrincipal(request: object, principal: Principal): void {
  principals.set(request, principal);
}

export function principalOf(request: object): Principal | undefined {
  return principals.get(request);
}

export function scopeOf(principal: Principal | undefined): LocationScope {
  return principal?.locations ?? undefined;
}

/** Injects the caller's {@link LocationScope} into a route handler. */
export const CallerScope = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): LocationScope =>
    scopeOf(principalOf(ctx.switchToHttp().getRequest<object>())),
);
