import { Module } from '@nestjs/common';

import { ConversationMemory } from './conversation-memory.service';
import { ConversationMessagesRepository } from './conversation-messages.repository';
import { HistoryController } from './history.controller';
import { HistoryRetention } from './history-retention';

/**
 * Conversation memory: stored messages, the windows derived from them, forgetting a
 * contact's history and the retention sweep. Ingest and webhooks write through it.
 */
@Module({
  controllers: [HistoryController],
  providers: [ConversationMessagesRepository, ConversationMemory, HistoryRetention],
  exports: [ConversationMemory, HistoryRetention],
})
export class ConversationsModule {}
