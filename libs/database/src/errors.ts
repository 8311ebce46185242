import { DependencyError } from '@app/common';
import { QueryFailedError } from 'typeorm';

/** The database cannot be reached (down, restarting, network): 503, retry later. */
export class DatabaseUnavailableError extends DependencyError {
  constructor(reason: string) {
    super('database_unavailable', `The database is unavailable (${reason}); retry shortly.`);
  }
}

/** A statement ran past `DATABASE_STATEMENT_TIMEOUT_MS` and was cancelled by the server. */
export class DatabaseTimeoutError extends DependencyError {
  constructor() {
    super('database_timeout', 'A database statement took too long and was cancelled.');
  }
}

// Node socket errors, and SQLSTATEs for "no usable connection": class 08 (connection
// exception), 57P01-03 (admin/crash shutdown, cannot connect now), 53300 (too many clients).
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
// node-postgres reports a lost or never-made connection with plain Errors, no code.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection ended/i;

/**
 * Two transactions each waited for the other (`40P01`) or a serializable one lost
 * (`40001`): the server already rolled one back, and running it again is the cure. What is
 * still in conflict after the transaction's retries reaches the client as a 503 to retry.
 */
export class DatabaseConflictError extends DependencyError {
  constructor(code: string) {
    super(
      'database_conflict',
      `The database aborted the write to break a conflict with a concurrent one (SQLSTATE ${code}); retry shortly.`,
    );
  }
}

const CONFLICT_STATES = new Set(['40P01', '40001']);

/** Whether `error` is a conflict the server resolved by aborting this transaction. */
export function isTransactionConflict(error: unknown): boolean {
  if (error instanceof DatabaseConflictError) {
    return true;
  }
  const e = (error instanceof QueryFailedError ? error.driverError : error) as { code?: unknown };
  return typeof e?.code === 'string' && CONFLICT_STATES.has(e.code);
}

/**
 * Maps a driver error to a stable domain error; anything that is not about reachability
 * (a constraint, a syntax error: our bug or bad data) passes through unchanged. The reason
 * names the class of failure only: driver messages can quote SQL and values.
 */
export function classifyDatabaseError(error: unknown): unknown {
  if (error instanceof QueryFailedError) {
    // TypeORM wraps what the connection threw (on PGlite, already a domain error).
    const known = classifyDatabaseError(error.driverError);
    return known instanceof DependencyError ? known : error;
  }
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e?.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code)) {
    return new DatabaseUnavailableError(code);
  }
  if (UNAVAILABLE_STATES.test(code)) {
    return new DatabaseUnavailableError(`SQLSTATE ${code}`);
  }
  if (code === '57014') {
    return new DatabaseTimeoutError();
  }
  if (CONFLICT_STATES.has(code)) {
    return new DatabaseConflictError(code);
  }
  if (typeof e?.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) {
    return new DatabaseUnavailableError('connection lost');
  }
  return error;
}
