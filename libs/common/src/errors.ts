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

/**
 * An error as text safe to log: our own errors' messages (a `DomainError` says what failed in
 * our words), else only the class name and code. An unknown error's message may quote data: a
 * Postgres duplicate-key error names the key, a parse error the input.
 */
export function safeErrorText(error: unknown): string {
  if (error instanceof DomainError) {
    return `${error.name}: ${error.message}`.slice(0, 500);
  }
  const { name, code } = (error ?? {}) as { name?: unknown; code?: unknown };
  const type = typeof name === 'string' && name ? name : 'Error';
  return typeof code === 'string' || typeof code === 'number' ? `${type} (${code})` : type;
}
