/**
 * Domain errors: named `Error` subclasses that carry a stable machine `code` and the HTTP
 * status the global exception filter maps them to. Services throw these; they never build
 * HTTP responses themselves.
 */
export class DomainError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly httpStatus = 500,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The request was well-formed JSON but semantically unusable (400). */
export class InvalidInputError extends DomainError {
  constructor(code: string, message: string, details?: Record<string, unknown>) {
    super(code, message, 400, details);
  }
}

/** A dependency (database, embedder, vendor API) failed or is not ready (503). */
export class DependencyError extends DomainError {
  constructor(code: string, message: string) {
    super(code, message, 503);
  }
}

/** The service cannot start with this configuration; the message says how to fix it. */
export class ConfigurationError extends DomainError {
  constructor(message: string) {
    super('configuration_error', message, 500);
  }
}
