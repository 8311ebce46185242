import { InvalidInputError } from '@app/common';

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
