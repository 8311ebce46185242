import { Module, type NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { type FastifyInstance } from 'fastify';

import { ApiKeyService } from '../auth/api-key.service';
import { ContextModule } from '../context/context.module';
import { ContextService } from '../context/context.service';
import { CallSessions } from '../context/speculative/call-sessions';
import { CallTurns } from '../context/speculative/call-turns';
import { ConversationsModule } from '../conversations/conversations.module';
import { CallHistory } from './call-history';
import { CallOpeningService } from './call-opening.service';
import { CallsController } from './calls.controller';
import { RecentMessages } from './recent-messages';
import { CallStreams, registerCallStream } from './stream/call-stream.route';

/**
 * `/calls`: prefetch when a call rings, its end (its turns join the contact's history), and
 * its stream (`GET /calls/{call_id}/stream`, WebSocket).
 */
@Module({
  imports: [ContextModule, ConversationsModule],
  controllers: [CallsController],
  providers: [CallOpeningService, CallHistory, RecentMessages, CallStreams],
})
export class CallsModule implements NestModule {
  constructor(
    private readonly http: HttpAdapterHost,
    private readonly streams: CallStreams,
    private readonly keys: ApiKeyService,
    private readonly sessions: CallSessions,
    private readonly context: ContextService,
    private readonly turns: CallTurns,
  ) {}

  /** Before Nest registers its routes (the WebSocket route is Fastify's own). Not for the CLI. */
  configure(): void {
    const adapter = this.http.httpAdapter as HttpAdapterHost['httpAdapter'] | undefined;
    if (!adapter) {
      return;
    }
    registerCallStream(adapter.getInstance<FastifyInstance>(), this.streams, {
      keys: this.keys,
      sessions: this.sessions,
      context: this.context,
      endCall: (identity) => this.sessions.end(identity),
      remember: (identity, transcript) =>
        this.turns.remember(this.turns.session(identity), transcript),
    });
  }
}
