import { DomainError } from '@app/common';

/** The whole `/search` (and MCP `search_history`) deadline: embed, scan, redact. */
export const SEARCH_TIMEOUT_MS = 2000;
/** Searches run at once; past it a call waits up to a quarter of the deadline, then 503. */
export const SEARCH_MAX_INFLIGHT = 8;
export const SEARCH_MAX_WAIT_MS = SEARCH_TIMEOUT_MS / 4;
const RETRY_AFTER_S = 1;

/** Every search slot stayed busy for the call's whole wait budget (503). */
export class SearchBusyError extends DomainError {
  constructor() {
    super('search_busy', `${SEARCH_MAX_INFLIGHT} searches already running; retry shortly.`, 503, {
      retry_after_s: RETRY_AFTER_S,
    });
  }
}

/** The search did not finish within its deadline (503); its work was stopped. */
export class SearchTimeoutError extends DomainError {
  constructor() {
    super(
      'search_timeout',
      `The search did not finish within ${SEARCH_TIMEOUT_MS} ms; its work was stopped.`,
      503,
    );
  }
}
