import { Module } from '@nestjs/common';

import { ConversationsModule } from '../conversations/conversations.module';
import { IngestModule } from '../ingest/ingest.module';
import { RelationalModule } from '../relational/relational.module';
import { WebhookBacklogMetrics } from './webhook-backlog-metrics';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookProcessor } from './webhook-processor';
import { WebhookWorker } from './webhook-worker';
import { WebhooksController } from './webhooks.controller';

/**
 * Podium webhooks for freshness: a verified, durable inbox and the worker that applies
 * events (cache invalidation, history re-keying and deletion, message ingestion).
 */
@Module({
  imports: [IngestModule, ConversationsModule, RelationalModule],
  controllers: [WebhooksController],
  providers: [WebhookMetrics, WebhookBacklogMetrics, WebhookProcessor, WebhookWorker],
  exports: [WebhookWorker],
})
export class WebhooksModule {}
