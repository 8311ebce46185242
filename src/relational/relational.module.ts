import { Module } from '@nestjs/common';

import { ContactTombstones } from './contact-tombstones';
import { ConversationMessagesRepository } from './conversation-messages.repository';
import { HistoryTombstones } from './history-tombstones';
import { WebhookInbox } from './webhook-inbox';

/**
 * The app's relational tables: the webhook inbox, contact tombstones, conversation messages
 * and forget requests (the embedded CRM's contacts and the Podium credentials are the podium
 * lib's). They live in the Database whatever the vector store, which `DatabaseModule` opens
 * and migrates on its own; nothing here goes through the vector store.
 */
@Module({
  providers: [WebhookInbox, ContactTombstones, ConversationMessagesRepository, HistoryTombstones],
  exports: [WebhookInbox, ContactTombstones, ConversationMessagesRepository, HistoryTombstones],
})
export class RelationalModule {}
