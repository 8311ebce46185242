import { safeErrorText } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import {
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';

import { Database } from '../database';
import { readStoreModel } from '../embedding-model-record';

/** How often a replica reads the store's model record: the longest it serves the old model. */
export const FOLLOW_INTERVAL_MS = 1000;

// pgvector's words when a vector meets a column or vector of another size (SQLSTATE 22000).
const SIZE_MISMATCH = /different (?:half)?vec(?:tor)? dimensions|expected \d+ dimensions, not \d+/;

/** Whether `error` is pgvector refusing a vector of another size than the column's. */
export function isVectorSizeMismatch(error: unknown): boolean {
  const e = (error instanceof QueryFailedError ? error.driverError : error) as {
    code?: unknown;
    message?: unknown;
  };
  return e?.code === '22000' && typeof e.message === 'string' && SIZE_MISMATCH.test(e.message);
}

/**
 * Keeps this replica on the model the store records: a `reembed` (another process, or this
 * one) switches the store in one transaction, and every replica adopts the new model within
 * {@link FOLLOW_INTERVAL_MS}, or at once when a search meets the new column first
 * ({@link retryOnSwitch}).
 */
@Injectable()
export class StoreModelFollower implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(StoreModelFollower.name);
  private timer?: NodeJS.Timeout;
  private refreshing?: Promise<void>;
  private lastFailure?: string;

  constructor(
    private readonly database: Database,
    private readonly embedding: EmbeddingService,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.refresh(), FOLLOW_INTERVAL_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  /** Reads the record and adopts its model if it moved; concurrent callers share one read. */
  refresh(): Promise<void> {
    this.refreshing ??= this.follow()
      .catch((error: unknown) => {
        const text = safeErrorText(error);
        if (text !== this.lastFailure) {
          this.logger.warn(`could not follow the store's embedding model: ${text}`);
        }
        this.lastFailure = text;
      })
      .finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /**
   * Runs `work` (which embeds and searches); when the store switched models between its
   * embed and its search, adopts the new model and runs it once more.
   */
  async retryOnSwitch<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!isVectorSizeMismatch(error)) {
        throw error;
      }
      await this.refresh();
      return work();
    }
  }

  private async follow(): Promise<void> {
    if (!this.database.isOpen || !this.embedding.ready) {
      return;
    }
    const stored = await readStoreModel(this.database);
    const serving = this.embedding.info;
    if (!stored || (stored.model === serving.model && stored.dimension === serving.dimension)) {
      return;
    }
    await this.embedding.switchModel(stored);
    this.database.followModel(stored);
    this.lastFailure = undefined;
  }
}
