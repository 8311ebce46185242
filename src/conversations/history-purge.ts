import { safeErrorText } from '@app/common';
import { Database } from '@app/database';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ConversationMemory } from './conversation-memory.service';

/** Pending forgets (a crash, another replica's) are resumed at least this often. */
const RESUME_EVERY_MS = 60_000;

/** The purge's advisory-lock name: one replica purges at a time. */
export const PURGE_JOB = 'history-purge';

/**
 * Deletes what forgets left behind (see ForgottenHistory): at once after a forget that
 * answered with `pending: true`, and at start-up and every minute for what a crash or another
 * replica left (pending forgets, rebuilds listed by a forget or retention). Nothing it
 * deletes is readable meanwhile; shutdown stops it between two batches.
 */
@Injectable()
export class HistoryPurge implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(HistoryPurge.name);
  private readonly stopping = new AbortController();
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly memory: ConversationMemory,
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // The server's job: a CLI `forget` deletes everything before it answers, and what other
    // processes left is not a one-off command's to finish.
    if (this.config.role === 'cli') {
      return;
    }
    this.memory.onPendingForget = () => this.kick();
    this.timer = setInterval(() => this.kick(), RESUME_EVERY_MS);
    this.timer.unref();
    // What a crash left (pending forgets, listed rebuilds) is finished now, not a minute on.
    this.kick();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    await this.running;
  }

  /** Starts a purge now, or once more after the one in flight (a forget came in meanwhile). */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.runUntilIdle().finally(() => (this.running = undefined));
  }

  /** Resolves when no purge is in flight (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) {
      await this.running;
    }
  }

  private async runUntilIdle(): Promise<void> {
    do {
      this.again = false;
      try {
        // Stops at shutdown, and when leadership is lost (another replica may start it).
        const outcome = await this.database.whileLeading(PURGE_JOB, (lost) =>
          this.memory.purgeForgotten(100, AbortSignal.any([this.stopping.signal, lost])),
        );
        if (outcome.ran && outcome.value) {
          this.logger.log(`history purge: ${outcome.value} forgotten histories deleted`);
        }
      } catch (error) {
        this.logger.warn(`history purge failed: ${safeErrorText(error)}`);
      }
    } while (this.again && !this.stopping.signal.aborted);
  }
}
