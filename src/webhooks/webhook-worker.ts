import { DomainError, withDeadline } from '@app/common';
import { DatabaseUnavailableError } from '@app/database';
import {
  type BeforeApplicationShutdown,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';

import { WebhookPayloadError } from './podium-events';
import { type ClaimedEvent, WebhookInbox } from './webhook-inbox';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookProcessor } from './webhook-processor';

/** Tuning of the background drain; exported for tests and docs. */
export const WORKER = {
  /** Events leased per round trip. */
  batch: 16,
  /** A lease outlives the per-event timeout, so a live worker never loses its event. */
  leaseMs: 60_000,
  eventTimeoutMs: 30_000,
  /** Sweep for retries that came due and leases a crashed process left behind. */
  pollMs: 5_000,
  /**
   * Attempts in all, the first included; then the event is dead-lettered. With the backoff
   * below that rides out about 2.5 hours of an embedder or database outage: an event we
   * acknowledged must not be given up on because a dependency blinked.
   */
  maxAttempts: 20,
  /** Delay before attempt n+1 (n = attempts so far); the last one repeats. */
  backoffMs: [1_000, 5_000, 30_000, 120_000, 600_000],
  /** Shutdown waits this long for the event in hand, then hands its lease back. */
  shutdownGraceMs: 2_000,
  purgeEveryMs: 60 * 60_000,
} as const;

/** An error text safe to store: our own messages only, never an unknown error's (it may quote data). */
function describe(error: unknown): string {
  if (error instanceof WebhookPayloadError || error instanceof DomainError) {
    return `${error.name}: ${error.message}`.slice(0, 500);
  }
  const e = error as { name?: unknown; code?: unknown };
  return `${typeof e?.name === 'string' ? e.name : 'Error'}${typeof e?.code === 'string' ? ` (${e.code})` : ''}`;
}

/**
 * Drains the inbox in the background: woken by each accepted delivery, by a slow poll
 * (retries, expired leases) and at boot, so events accepted before a crash or restart are
 * processed when the service is back. One drain runs at a time, events in arrival order.
 */
@Injectable()
export class WebhookWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(WebhookWorker.name);
  private draining?: Promise<void>;
  private again = false;
  private stopped = false;
  private poll?: NodeJS.Timeout;
  private lastPurge = 0;
  /** Set while the database is away: the outage is logged once, not at every poll. */
  private paused = false;
  /** Leased by this process and not finished: handed back on shutdown. */
  private readonly inHand = new Set<string>();

  constructor(
    private readonly inbox: WebhookInbox,
    private readonly processor: WebhookProcessor,
    private readonly metrics: WebhookMetrics,
  ) {}

  onApplicationBootstrap(): void {
    // Not awaited: a backlog must not hold up readiness. The database opens during boot.
    void this.inbox.whenReady().then(() => {
      if (this.stopped) {
        return;
      }
      this.poll = setInterval(() => this.kick(), WORKER.pollMs);
      this.poll.unref();
      this.kick();
    });
  }

  /** Asks for a drain; coalesces with one already running. Never throws. */
  kick(): void {
    if (this.stopped || !this.inbox.ready) {
      return;
    }
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .then(() => {
        if (this.paused) {
          this.paused = false;
          this.logger.log('webhook worker resumed: the database is back');
        }
      })
      .catch((error: unknown) => this.drainFailed(error))
      .finally(() => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Resolves when no drain is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.draining) {
      await this.draining;
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poll);
    if (this.draining) {
      let timer: NodeJS.Timeout | undefined;
      const grace = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, WORKER.shutdownGraceMs);
      });
      await Promise.race([this.draining, grace]);
      clearTimeout(timer);
    }
    const unfinished = [...this.inHand];
    this.inHand.clear();
    await this.inbox.release(unfinished).catch((error: unknown) => {
      this.logger.warn(`could not release webhook leases: ${describe(error)}`);
    });
  }

  private drainFailed(error: unknown): void {
    if (!(error instanceof DatabaseUnavailableError)) {
      this.logger.error(`webhook drain failed: ${describe(error)}`);
    } else if (!this.paused) {
      this.paused = true;
      this.logger.warn(
        `webhook worker paused: ${error.message} Polling every ${WORKER.pollMs} ms.`,
      );
    }
  }

  private async drain(): Promise<void> {
    if (this.inHand.size > 0) {
      // Leased by a drain the database interrupted (its outcome could not be written):
      // hand them back now rather than letting them wait out the lease.
      await this.inbox.release([...this.inHand]);
      this.inHand.clear();
    }
    if (Date.now() - this.lastPurge > WORKER.purgeEveryMs) {
      this.lastPurge = Date.now();
      await this.inbox.purgeProcessed();
    }
    while (!this.stopped) {
      const batch = await this.inbox.claim(WORKER.batch, WORKER.leaseMs);
      if (batch.length === 0) {
        return;
      }
      batch.forEach((e) => this.inHand.add(e.event_id));
      for (const event of batch) {
        if (this.stopped) {
          return; // the rest stay in hand and are released by the shutdown
        }
        await this.handle(event);
      }
    }
  }

  private async handle(event: ClaimedEvent): Promise<void> {
    const result = await withDeadline(WORKER.eventTimeoutMs, () => this.processor.process(event));
    if (this.stopped && result.status !== 'ok') {
      return; // interrupted by shutdown: released, retried at the next start
    }
    const type = event.type;
    if (result.status === 'ok') {
      await this.inbox.markProcessed(event.event_id);
      this.inHand.delete(event.event_id);
      this.metrics.events.inc({ type, outcome: result.value.outcome });
      this.metrics.lag.observe((Date.now() - event.received_at.getTime()) / 1000);
      return;
    }
    const reason =
      result.status === 'timeout'
        ? `Timeout: no result after ${WORKER.eventTimeoutMs} ms`
        : describe(result.error);
    const permanent = result.status === 'error' && result.error instanceof WebhookPayloadError;
    if (permanent || event.attempts >= WORKER.maxAttempts) {
      await this.inbox.markFailed(event.event_id, reason);
      this.metrics.events.inc({ type, outcome: 'dead' });
      // Ids and types only: payloads hold customer text.
      this.logger.error(
        `webhook event ${event.event_id} (${type}) dead-lettered after ${event.attempts} attempt(s): ${reason}`,
      );
    } else {
      const delay = WORKER.backoffMs[Math.min(event.attempts, WORKER.backoffMs.length) - 1];
      await this.inbox.scheduleRetry(event.event_id, reason, delay);
      this.metrics.events.inc({ type, outcome: 'retried' });
      this.logger.warn(
        `webhook event ${event.event_id} (${type}) failed attempt ${event.attempts}, retry in ${delay} ms: ${reason}`,
      );
    }
    this.inHand.delete(event.event_id);
  }
}
