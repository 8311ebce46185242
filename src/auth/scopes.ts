import { SetMetadata } from '@nestjs/common';

import { type ApiScope } from '../config/api-key-entries';
import { type Principal } from './api-keys';

export const REQUIRED_SCOPE = 'context-bridge:required-scope';

/**
 * The scope a key needs for a route (docs/security.md has the map). A key-protected route
 * without one needs `admin`: a new route is closed to scoped keys until it says otherwise.
 * On a `@Public()` route it applies only when a key is presented (the Vapi route admits a
 * key or a Vapi secret).
 */
export const RequireScope = (scope: ApiScope) =>
  SetMetadata<string, ApiScope>(REQUIRED_SCOPE, scope);

/** True when the key may act under `scope`: unscoped keys and `admin` may do everything. */
export function hasScope(principal: Principal, scope: ApiScope): boolean {
  const scopes = principal.scopes;
  return !scopes || scopes.includes('admin') || scopes.includes(scope);
}
