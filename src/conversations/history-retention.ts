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

const DAY_MS = 86_400_000;
/** Often enough that history is never much older than the retention; cheap when idle. */
const SWEEP_EVERY_MS = 60 * 60_000;

/** The sweep's advisory-lock name: one replica sweeps at a time. */
export const RETENTION_JOB = 'history-retention';

/**
 * HISTORY_RETENTION_DAYS: an hourly sweep deletes older messages and rebuilds the
 * conversations that lost some (their remaining messages keep their windows). Off when the
 * setting is unset. Every replica schedules it; a replica whose tick finds another one
 * sweeping skips its turn (the sweep is idempotent, so a later turn elsewhere is harmless).
 */
@Injectable()
export class HistoryRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(HistoryRetention.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;

  constructor(
    private readonly memory: ConversationMemory,
    private readonly database: Database,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // The server's schedule; a CLI process sweeps only when told (`purge-history`).
    if (this.config.history.retentionDays === undefined || this.config.role === 'cli') {
      return;
    }
    this.timer = setInterval(() => void this.sweepInBackground(), SWEEP_EVERY_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One sweep at `now`; returns what it removed (tests call it directly). */
  async sweep(now = new Date()) {
    const days = this.config.history.retentionDays;
    if (days === undefined) {
      return { conversations: 0, inserted: 0, skipped: 0, removed: 0 };
    }
    return this.memory.purgeBefore(new Date(now.getTime() - days * DAY_MS));
  }

  /**
   * One scheduled turn: sweeps unless another replica is sweeping now. Returns what it did
   * (`ran: false`: skipped).
   */
  async sweepIfLeader(now = new Date()) {
    const outcome = await this.database.whileLeading(RETENTION_JOB, () => this.sweep(now));
    if (outcome.ran && outcome.value.conversations) {
      this.logger.log(`retention: ${outcome.value.conversations} conversations purged`);
    }
    return outcome;
  }

  private async sweepInBackground(): Promise<void> {
    if (this.running) {
      return;
    }
    this.running = this.sweepIfLeader()
      .catch((error: unknown) =>
        this.logger.warn(`retention sweep failed: ${safeErrorText(error)}`),
      )
      .finally(() => (this.running = undefined));
    await this.running;
  }
}
