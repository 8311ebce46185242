import { Module } from '@nestjs/common';

import { ConversationsModule } from '../conversations/conversations.module';
import { IngestModule } from '../ingest/ingest.module';
import { ContactTombstones } from './contact-tombstones';
import { WebhookInbox } from './webhook-inbox';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookProcessor } from './webhook-processor';
import { WebhookWorker } from './webhook-worker';
import { WebhooksController } from './webhooks.controller';

/**
 * Podium webhooks for freshness: a verified, durable inbox and the worker that applies
 * events (cache invalidation, history re-keying and deletion, message ingestion).
 */
@Module({
  imports: [IngestModule, ConversationsModule],
  controllers: [WebhooksController],
  providers: [ContactTombstones, WebhookInbox, WebhookMetrics, WebhookProcessor, WebhookWorker],
  exports: [WebhookInbox, WebhookWorker],
})
export class WebhooksModule {}
