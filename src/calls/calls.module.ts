import { Module } from '@nestjs/common';

import { ContextModule } from '../context/context.module';
import { ConversationsModule } from '../conversations/conversations.module';
import { CallHistory } from './call-history';
import { CallOpeningService } from './call-opening.service';
import { CallsController } from './calls.controller';
import { RecentMessages } from './recent-messages';

/** `/calls`: prefetch when a call rings, and its end (its turns join the contact's history). */
@Module({
  imports: [ContextModule, ConversationsModule],
  controllers: [CallsController],
  providers: [CallOpeningService, CallHistory, RecentMessages],
})
export class CallsModule {}
