import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { CallerScope, type LocationScope } from '../../auth/principal';
import { callerTracker } from '../../auth/rate-limiter';
import { RequireScope } from '../../auth/scopes';
import { arrivalOf } from '../../common/arrival';
import { MCP_MAX_BATCH, McpBatchTooLargeError } from './mcp-bounds';
import { McpToolsService } from './mcp-tools.service';

const JSON_RPC = {
  type: 'object',
  required: ['jsonrpc'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
    method: { type: 'string', example: 'tools/call' },
    params: { type: 'object', additionalProperties: true },
    result: { type: 'object', additionalProperties: true },
    error: { type: 'object', additionalProperties: true },
  },
};

/**
 * MCP over Streamable HTTP, stateless: every POST gets a fresh server and transport, so any
 * replica can answer any request and nothing outlives it. API-key auth is the global guard's
 * (a 401 before any JSON-RPC), and the key's location binding scopes every tool call.
 * GET and DELETE (server streams, sessions) answer 405: see `McpModule`. A JSON-RPC batch
 * holds at most MCP_MAX_BATCH messages, and its tool calls run a few at a time. A caller
 * refused here is then refused unread for a while (`registerMcpRefusalHold`).
 */
@ApiTags('adapters')
@RequireScope('context:read')
@Controller('mcp')
export class McpController {
  constructor(private readonly tools: McpToolsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'MCP (Streamable HTTP): tools context_fetch, search_history, redact, kb_search',
    description:
      'A JSON-RPC message from an MCP client (send `Accept: application/json, text/event-stream`), or a batch of at most 8 (400 `mcp_batch_too_large`). Tool failures come back as tool results with `isError: true` and a JSON `{error, message}` text. A caller refused here (400, 406, 408, 413, 415 or 429) has its next /mcp requests refused unread for 5 s: 429 `mcp_caller_held` with Retry-After.',
  })
  @ApiBody({ schema: JSON_RPC })
  @ApiOkResponse({
    description: 'The JSON-RPC response (202 with no body for a notification).',
    content: { 'application/json': { schema: JSON_RPC } },
  })
  async handle(
    @Body() body: unknown, // JSON-RPC: the SDK's transport validates it, not the DTO pipe
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
    @CallerScope() scope?: LocationScope,
  ): Promise<void> {
    // One request is one rate-limit token: a batch of many calls would be many for one.
    if (Array.isArray(body) && body.length > MCP_MAX_BATCH) {
      throw new McpBatchTooLargeError(body.length);
    }
    const server = this.tools.createServer(scope, arrivalOf(request), callerTracker(request));
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true, // one JSON answer per request: no stream to hold open
    });
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    reply.hijack();
    // Headers set by our hooks (x-request-id, CORS) must survive the hijack.
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) {
        reply.raw.setHeader(name, value);
      }
    }
    await transport.handleRequest(request.raw, reply.raw, body);
  }
}
