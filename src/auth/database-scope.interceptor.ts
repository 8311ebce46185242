import { type DatabaseScope, withDatabaseScope } from '@app/database';
import {
  type CallHandler,
  type ExecutionContext,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import { type Observable } from 'rxjs';

import { principalOf, scopeOf } from './principal';

/**
 * Publishes the caller's location scope to the database (APP_INTERCEPTOR): the route's
 * work, and all it starts, runs in the principal's {@link DatabaseScope}, so row-level
 * security keeps every statement to a bound key's locations. Guards have run by now and
 * attached the principal (API key, Vapi secret); none (a public route, the open mode)
 * leaves the caller unbound, as `@CallerScope()` does.
 */
@Injectable()
export class DatabaseScopeInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') {
      return next.handle();
    }
    const locations = scopeOf(principalOf(context.switchToHttp().getRequest<object>()));
    const scope: DatabaseScope = locations ? { kind: 'locations', locations } : { kind: 'every' };
    // Nest binds the handler to the async context in which handle() is called.
    return withDatabaseScope(scope, () => next.handle());
  }
}
