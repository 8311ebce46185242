import { InvalidInputError } from '@app/common';

import { TooManyRequestsError } from '../../auth/auth.errors';

/**
 * JSON-RPC messages per MCP HTTP request. The rate limiter charges one token per request,
 * and MCP clients send one call per request (the 2025-06 protocol dropped batching); a few
 * are allowed for older clients.
 */
export const MCP_MAX_BATCH = 8;

/** Tool calls of one request running at once; the rest of its batch waits its turn. */
export const MCP_CALL_CONCURRENCY = 2;

/** A batch longer than {@link MCP_MAX_BATCH} (400). */
export class McpBatchTooLargeError extends InvalidInputError {
  constructor(size: number) {
    super(
      'mcp_batch_too_large',
      `A JSON-RPC batch of ${size} messages; at most ${MCP_MAX_BATCH} per request.`,
      { max: MCP_MAX_BATCH },
    );
  }
}

/**
 * The caller's last `/mcp` request was refused as its own fault: its next ones are refused
 * unread until the hold ends (429, Retry-After).
 */
export class McpCallerHeldError extends TooManyRequestsError {
  constructor(retryAfterS: number) {
    super(
      'mcp_caller_held',
      `A recent /mcp request of this caller was refused (a batch over ${MCP_MAX_BATCH} messages, a malformed or oversized body, or over its rate limit); its /mcp requests are refused unread for ${retryAfterS} s.`,
      retryAfterS,
    );
  }
}
