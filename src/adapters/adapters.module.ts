import { Module } from '@nestjs/common';

import { McpModule } from './mcp/mcp.module';
import { OpenAiAdapterModule } from './openai/openai-adapter.module';
import { VapiModule } from './vapi/vapi.module';

/**
 * The bridge in the shapes agent platforms already speak (Vapi, MCP, OpenAI's vector-store
 * search). Each adapter is a thin controller over the services behind `/context`, `/search`,
 * `/redact` and `/chat`; none has logic of its own beyond mapping shapes.
 */
@Module({ imports: [VapiModule, McpModule, OpenAiAdapterModule] })
export class AdaptersModule {}
