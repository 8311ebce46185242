import { StartupRetry } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';

import { Database } from './database';

/**
 * Opens and migrates the database at module init, before any bootstrap hook, so every user
 * of its tables (the embedded CRM, the webhook inbox, conversation memory, pgvector) finds
 * it open, whichever vector store is configured. The vector columns are sized by the
 * embedder, hence the wait for its dimension.
 *
 * A server that cannot be reached (a DependencyError) does not fail the boot: readiness
 * reports it and the open is retried in the background. Anything else, such as a dimension
 * mismatch, still fails the boot.
 */
@Injectable()
export class DatabaseOpener implements OnModuleInit, OnApplicationShutdown {
  private readonly retry = new StartupRetry(new Logger(Database.name), {
    down: 'database not open',
    failed: 'database start-up failed',
  });

  constructor(
    private readonly database: Database,
    private readonly embedding: EmbeddingService,
  ) {}

  async onModuleInit(): Promise<void> {
    const { provider, model, dimension } = await this.embedding.whenReady();
    await this.retry.run(() => this.database.open(dimension, { provider, model }));
  }

  /** Before the module closes the connection, so no retry reopens it. */
  onApplicationShutdown(): void {
    this.retry.stop();
  }
}
