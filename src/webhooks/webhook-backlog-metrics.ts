import { Injectable } from '@nestjs/common';
import { Gauge } from 'prom-client';

import { MetricsService } from '../metrics/metrics.service';
import { WebhookInbox } from '../relational/webhook-inbox';

/** Scrapes within this long of the last backlog query reuse its answer. */
const CACHE_MS = 5_000;

interface Backlog {
  events: number;
  oldestSeconds: number;
}

/**
 * The webhook inbox's backlog as gauges, read at scrape time. The inbox is shared, so every
 * replica reports the same figure (dashboards take the max). A scrape never fails on the
 * database: while it is away the last figure read stays.
 */
@Injectable()
export class WebhookBacklogMetrics {
  private last: Backlog = { events: 0, oldestSeconds: 0 };
  /** One query serves both gauges of a scrape (prom-client collects them concurrently). */
  private reading?: Promise<Backlog>;
  private readAt = Number.NEGATIVE_INFINITY;

  constructor(
    metrics: MetricsService,
    private readonly inbox: WebhookInbox,
  ) {
    const read = () => this.read();
    new Gauge({
      name: 'context_bridge_webhook_backlog_events',
      help: 'Webhook events accepted and not yet processed or dead-lettered (the shared inbox).',
      registers: [metrics.registry],
      async collect() {
        this.set((await read()).events);
      },
    });
    new Gauge({
      name: 'context_bridge_webhook_oldest_pending_seconds',
      help: 'Age of the oldest webhook event still waiting to be processed (0: none).',
      registers: [metrics.registry],
      async collect() {
        this.set((await read()).oldestSeconds);
      },
    });
  }

  private read(): Promise<Backlog> {
    if (!this.inbox.ready) {
      return Promise.resolve(this.last);
    }
    if (!this.reading || performance.now() - this.readAt > CACHE_MS) {
      this.readAt = performance.now();
      this.reading = this.inbox.backlog().then(
        (backlog) => (this.last = backlog),
        () => this.last,
      );
    }
    return this.reading;
  }
}
