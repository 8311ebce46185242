import { DependencyError } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';

import { Database } from './database';

/** Pause between attempts while the database server cannot be reached. */
const RETRY_MS = 5000;

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
  private readonly logger = new Logger(Database.name);
  private retry?: NodeJS.Timeout;
  private stopped = false;

  constructor(
    private readonly database: Database,
    private readonly embedding: EmbeddingService,
  ) {}

  async onModuleInit(): Promise<void> {
    const { dimension } = await this.embedding.whenReady();
    await this.open(dimension);
  }

  private async open(dimension: number): Promise<void> {
    try {
      await this.database.open(dimension);
    } catch (error) {
      if (!(error instanceof DependencyError) || this.stopped) {
        throw error;
      }
      this.logger.error(`database not open: ${error.message}; retrying in ${RETRY_MS} ms`);
      this.retry = setTimeout(() => {
        this.open(dimension).catch((e: unknown) =>
          this.logger.error(`database start-up failed: ${(e as Error).message}`),
        );
      }, RETRY_MS);
    }
  }

  /** Before the module closes the connection, so no retry reopens it. */
  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.retry);
  }
}
