import { Module } from '@nestjs/common';

import { RelationalModule } from '../relational/relational.module';
import { ConversationMemory } from './conversation-memory.service';
import { ForgetGate } from './forget-gate';
import { HistoryController } from './history.controller';
import { HistoryPurge } from './history-purge';
import { HistoryRetention } from './history-retention';

/**
 * Conversation memory: stored messages, the windows derived from them, forgetting a
 * contact's history (and its background purge) and the retention sweep. Ingest and webhooks write through it.
 */
@Module({
  imports: [RelationalModule],
  controllers: [HistoryController],
  providers: [ConversationMemory, HistoryRetention, HistoryPurge, ForgetGate],
  exports: [ConversationMemory, HistoryRetention, HistoryPurge],
})
export class ConversationsModule {}
