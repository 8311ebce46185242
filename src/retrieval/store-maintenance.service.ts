import { safeErrorText } from '@app/common';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
  Optional,
} from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { StoreBootstrap } from './store-bootstrap.service';

/** Often enough that a contact which grew large gets its own index within minutes. */
const EVERY_MS = 10 * 60_000;
/** The first run waits for the boot's warm-up and first requests to pass. */
const FIRST_RUN_MS = 15_000;
/**
 * How often the store is asked whether upkeep is due sooner (an ingest just ended and left a
 * large contact without its index): a cheap in-memory check, a few key lookups when it is.
 */
export const DUE_POLL_MS = 5_000;

/**
 * Runs the store's background upkeep (pgvector: per-contact HNSW indexes for large
 * histories) on a timer, never on a request's path; a failed run is logged and retried on
 * the next tick. Replicas coordinate inside the store (a build is claimed by one).
 */
/** Counts only: contact ids stay out of the logs. */
function summary(report: unknown): string {
  const counts = Object.entries((report ?? {}) as Record<string, unknown>).map(
    ([key, value]) => `${key} ${Array.isArray(value) ? value.length : String(value)}`,
  );
  return counts.join(', ') || 'nothing to do';
}

@Injectable()
export class StoreMaintenance implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(StoreMaintenance.name);
  private timer?: NodeJS.Timeout;
  private first?: NodeJS.Timeout;
  private poll?: NodeJS.Timeout;
  private checking = false;
  private running?: Promise<void>;
  /** Aborted at shutdown: a build in flight is cancelled on the server, not waited for. */
  private readonly stopping = new AbortController();

  constructor(
    @Inject(VECTOR_STORE) private readonly store: VectorStore,
    private readonly bootstrap: StoreBootstrap,
    // Optional for tests that build it bare; the app always provides the config.
    @Optional() @Inject(APP_CONFIG) private readonly config?: Pick<AppConfig, 'role'>,
  ) {}

  onApplicationBootstrap(): void {
    // The server's schedule: a CLI command does not start background index builds.
    if (!this.store.maintain || this.config?.role === 'cli') {
      return;
    }
    this.first = setTimeout(() => void this.runOnce(), FIRST_RUN_MS);
    this.timer = setInterval(() => void this.runOnce(), EVERY_MS);
    this.first.unref();
    this.timer.unref();
    if (this.store.maintenanceDue) {
      this.poll = setInterval(() => void this.runIfDue(), DUE_POLL_MS);
      this.poll.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    clearTimeout(this.first);
    clearInterval(this.timer);
    clearInterval(this.poll);
    this.stopping.abort();
    await this.running;
  }

  /** One run now if the store says upkeep is due (polled); a failed check waits for the next. */
  async runIfDue(): Promise<void> {
    if (this.checking || this.running || !this.bootstrap.ready || this.stopping.signal.aborted) {
      return;
    }
    this.checking = true;
    try {
      if (await this.store.maintenanceDue?.()) {
        await this.runOnce();
      }
    } catch (error: unknown) {
      this.logger.warn(`store maintenance check failed: ${safeErrorText(error)}`);
    } finally {
      this.checking = false;
    }
  }

  /** One run now, unless one is in flight or the store is not up (tests, the CLI). */
  async runOnce(): Promise<void> {
    if (
      this.running ||
      !this.bootstrap.ready ||
      !this.store.maintain ||
      this.stopping.signal.aborted
    ) {
      return this.running;
    }
    const started = performance.now();
    this.running = this.store
      .maintain(this.stopping.signal)
      .then((report) =>
        this.logger.log(
          `store maintenance done in ${Math.round(performance.now() - started)} ms: ${summary(report)}`,
        ),
      )
      .catch((error: unknown) =>
        this.logger.warn(`store maintenance failed: ${safeErrorText(error)}`),
      )
      .finally(() => (this.running = undefined));
    return this.running;
  }
}
