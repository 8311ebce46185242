import { DomainError, inSpan, recordingSpan, withDeadline } from '@app/common';
import { Database, DatabaseUnavailableError } from '@app/database';
import {
  type BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
} from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ContactTombstones } from '../relational/contact-tombstones';
import { type ClaimedEvent, type Lease, WebhookInbox } from '../relational/webhook-inbox';
import { WebhookPayloadError } from './podium-events';
import { WebhookMetrics } from './webhook-metrics';
import { WebhookProcessor } from './webhook-processor';

/** Tuning of the background drain; exported for tests and docs. */
export const WORKER = {
  /** Events leased per round trip. */
  batch: 16,
  /**
   * Each event's lease is restarted just before its own processing, and outlives the
   * per-event timeout (after which processing is aborted) plus the settling write, so a live
   * worker never loses the event it is working on. Events still waiting in the batch may
   * lose theirs to another replica; their renewal then fails and they are skipped here.
   */
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

/** The purge's advisory-lock name: one replica purges at a time. */
export const WEBHOOK_PURGE_JOB = 'webhook-inbox-purge';

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
  private readonly inHand = new Map<string, Lease>();

  constructor(
    private readonly inbox: WebhookInbox,
    private readonly processor: WebhookProcessor,
    private readonly metrics: WebhookMetrics,
    private readonly tombstones: ContactTombstones,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly database: Database,
  ) {}

  onApplicationBootstrap(): void {
    // A CLI command leaves the inbox to the server (it may run another version or config).
    if (this.config.role === 'cli') {
      return;
    }
    // Not awaited: a backlog must not hold up readiness. The database opens during boot.
    void this.inbox
      .whenReady()
      .then(() => this.inbox.releaseOrphanedLeases())
      .then(
        (released) => {
          if (released > 0) {
            this.logger.log(`took back ${released} leases a dead process held`);
          }
        },
        (error: unknown) => this.logger.warn(`leases not taken back: ${describe(error)}`),
      )
      .then(() => {
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
    const unfinished = [...this.inHand.values()];
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
    if (Date.now() - this.lastPurge > WORKER.purgeEveryMs) {
      this.lastPurge = Date.now();
      // Every replica drains; the hourly purge runs on whichever gets there first.
      await this.database.whileLeading(WEBHOOK_PURGE_JOB, async () => {
        await this.inbox.purgeProcessed();
        await this.inbox.redactDeadLetters(this.config.webhooks.deadLetterRetentionHours);
        await this.tombstones.purgeExpired();
      });
    }
    if (this.inHand.size > 0) {
      // A previous drain failed mid-batch (the database went away): without this its leases
      // would hold those events back for up to leaseMs after the database is back.
      await this.inbox.release([...this.inHand.values()]);
      this.inHand.clear();
    }
    while (!this.stopped) {
      const batch = await this.inbox.claim(WORKER.batch, WORKER.leaseMs);
      if (batch.length === 0) {
        return;
      }
      batch.forEach((e) => this.inHand.set(e.event_id, e));
      for (const event of batch) {
        if (this.stopped) {
          return; // the rest stay in hand and are released by the shutdown
        }
        await this.handle(event);
      }
    }
  }

  /** Each event is a trace of its own: it runs long after the delivery's request ended. */
  private handle(event: ClaimedEvent): Promise<void> {
    return inSpan('webhook.process', () => this.process(event), undefined, {
      root: true,
      attributes: {
        'webhook.event_type': event.type,
        'webhook.attempt': event.attempts,
        'webhook.lag_ms': Date.now() - event.received_at.getTime(),
      },
    });
  }

  private async process(event: ClaimedEvent): Promise<void> {
    if (!(await this.inbox.renew(event, WORKER.leaseMs))) {
      // Its lease ran out while it waited in the batch and another replica has it now.
      this.inHand.delete(event.event_id);
      recordingSpan()?.setAttribute('webhook.outcome', 'lease_lost');
      return;
    }
    // The signal aborts at the deadline, so a timed-out event stops instead of running on
    // next to its own retry (or another replica's attempt).
    const result = await withDeadline(WORKER.eventTimeoutMs, (signal) =>
      this.processor.process(event, signal),
    );
    if (this.stopped && result.status !== 'ok') {
      return; // interrupted by shutdown: released, retried at the next start
    }
    const type = event.type;
    if (result.status === 'ok') {
      await this.inbox.markProcessed(event);
      this.inHand.delete(event.event_id);
      this.metrics.events.inc({ type, outcome: result.value.outcome });
      recordingSpan()?.setAttribute('webhook.outcome', result.value.outcome);
      this.metrics.lag.observe((Date.now() - event.received_at.getTime()) / 1000);
      return;
    }
    const reason =
      result.status === 'timeout'
        ? `Timeout: no result after ${WORKER.eventTimeoutMs} ms`
        : describe(result.error);
    const permanent = result.status === 'error' && result.error instanceof WebhookPayloadError;
    if (permanent || event.attempts >= WORKER.maxAttempts) {
      await this.inbox.markFailed(event, reason, this.config.webhooks.deadLetterRetentionHours > 0);
      this.metrics.events.inc({ type, outcome: 'dead' });
      recordingSpan()?.setAttribute('webhook.outcome', 'dead');
      // Ids and types only: payloads hold customer text.
      this.logger.error(
        `webhook event ${event.event_id} (${type}) dead-lettered after ${event.attempts} attempt(s): ${reason}`,
      );
    } else {
      const delay = WORKER.backoffMs[Math.min(event.attempts, WORKER.backoffMs.length) - 1];
      await this.inbox.scheduleRetry(event, reason, delay);
      this.metrics.events.inc({ type, outcome: 'retried' });
      recordingSpan()?.setAttribute('webhook.outcome', 'retried');
      this.logger.warn(
        `webhook event ${event.event_id} (${type}) failed attempt ${event.attempts}, retry in ${delay} ms: ${reason}`,
      );
    }
    this.inHand.delete(event.event_id);
  }
}
