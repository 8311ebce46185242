import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FastifyInstance } from 'fastify';

import { ChatModule } from '../../chat/chat.module';
import { ContextModule } from '../../context/context.module';
import { RetrievalModule } from '../../retrieval/retrieval.module';
import { McpController } from './mcp.controller';
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
  providers: [McpToolsService],
})
export class McpModule implements OnModuleInit {
  constructor(private readonly http: HttpAdapterHost) {}

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
