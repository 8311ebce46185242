import { Module } from '@nestjs/common';

import { ConversationMemory } from './conversation-memory.service';
import { RelationalModule } from '../relational/relational.module';
import { HistoryRetention } from './history-retention';
import { HistoryController } from './history.controller';

/**
 * Conversation memory: stored messages, the windows derived from them, forgetting a
 * contact's history and the retention sweep. Ingest and webhooks write through it.
 */
@Module({
  imports: [RelationalModule],
  controllers: [HistoryController],
  providers: [ConversationMemory, HistoryRetention],
  exports: [ConversationMemory, HistoryRetention],
})
export class ConversationsModule {}
