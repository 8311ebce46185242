import { DomainError } from '@app/common';

/** No credentials, or credentials that prove nothing (401). */
export class AuthenticationError extends DomainError {
  constructor(code: string, message: string) {
    super(code, message, 401);
  }
}

/** Authenticated, but this key may not touch that tenant's data (403). */
export class TenantForbiddenError extends DomainError {
  constructor(message: string, details?: Record<string, unknown>) {
    super('location_forbidden', message, 403, details);
  }
}

/** Over a rate or concurrency limit (429); the `Retry-After` header says when to come back. */
export class TooManyRequestsError extends DomainError {
  constructor(code: string, message: string, retryAfterS: number) {
    super(code, message, 429, { retry_after_s: retryAfterS });
  }
}

/** A valid key without the scope the route needs (403); `required_scope` names it. */
export class InsufficientScopeError extends DomainError {
  constructor(scope: string) {
    super(
      'insufficient_scope',
      `This API key lacks the "${scope}" scope this endpoint needs.`,
      403,
      { required_scope: scope },
    );
  }
}
