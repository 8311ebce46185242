import { Module } from '@nestjs/common';

import { ChatController } from './chat.controller';
import { ChatService } from './chat.service';
import { ChatMetrics } from './chat-metrics';
import { KbRetrievalService } from './kb-retrieval.service';

/** R42 knowledge chat: `POST /chat`, grounded in the KB collections, streamed as SSE. */
@Module({
  controllers: [ChatController],
  providers: [ChatService, ChatMetrics, KbRetrievalService],
  exports: [KbRetrievalService],
})
export class ChatModule {}
