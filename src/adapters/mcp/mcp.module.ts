import { Module, type NestModule, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FastifyInstance } from 'fastify';

import { ApiKeyService } from '../../auth/api-key.service';
import { callerTracker, RateLimiter } from '../../auth/rate-limiter';
import { ChatModule } from '../../chat/chat.module';
import { ContextModule } from '../../context/context.module';
import { RetrievalModule } from '../../retrieval/retrieval.module';
import { CallerHolds } from './caller-holds';
import { McpController } from './mcp.controller';
import { registerMcpRefusalHold } from './mcp-refusal-hold';
import { McpToolsService } from './mcp-tools.service';

/** The JSON-RPC error MCP's stateless servers answer to GET (no server stream) and DELETE. */
const METHOD_NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this MCP server is stateless.' },
  id: null,
};

/** `/mcp`: the bridge's services as MCP tools. */
@Module({
  imports: [ContextModule, RetrievalModule, ChatModule],
  controllers: [McpController],
  providers: [McpToolsService, { provide: CallerHolds, useFactory: () => new CallerHolds() }],
})
export class McpModule implements NestModule, OnModuleInit {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly holds: CallerHolds,
    private readonly keys: ApiKeyService,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * The refusal hold ({@link registerMcpRefusalHold}): hooks on `POST /mcp` itself, set as the
   * route is registered, which Nest does after `configure`. Not called without HTTP (the CLI).
   */
  configure(): void {
    registerMcpRefusalHold(this.http.httpAdapter.getInstance<FastifyInstance>(), {
      holds: this.holds,
      // The key the guard will find, or the client IP: the rate limiter's caller.
      callerOf: (request) => {
        const identity = this.keys.identify(request);
        return callerTracker(request, identity.kind === 'key' ? identity.principal : undefined);
      },
      countRefused: (request, reply) => this.limiter.countRefused(request, reply),
    });
  }

  /**
   * The Streamable HTTP spec wants a 405 (not a 404) for GET and DELETE when the server
   * offers no stream and no session; clients then skip them. Plain Fastify routes: there is
   * nothing to guard or document in a refusal.
   */
  onModuleInit(): void {
    // The CLI boots the modules as an application context, without any HTTP server.
    const adapter = this.http.httpAdapter as HttpAdapterHost['httpAdapter'] | undefined;
    if (!adapter) {
      return;
    }
    const fastify = adapter.getInstance<FastifyInstance>();
    for (const method of ['GET', 'DELETE'] as const) {
      fastify.route({
        method,
        url: '/mcp',
        handler: (_request, reply) =>
          reply.code(405).header('allow', 'POST').send(METHOD_NOT_ALLOWED),
      });
    }
  }
}
