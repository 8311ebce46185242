import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';

import { MetricsService } from '../metrics/metrics.service';

/**
 * Webhook metrics, on the app's one registry. Labels are bounded: outcomes (a delivery:
 * accepted, duplicate, ignored, unauthorized, invalid, not_configured; a processing attempt:
 * processed, skipped, retried, dead), and event types from the handled set. `..._lag_seconds` is the freshness figure: delivery to processed.
 */
@Injectable()
export class WebhookMetrics {
  readonly deliveries: Counter<'outcome'>;
  readonly events: Counter<'type' | 'outcome'>;
  readonly lag: Histogram;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.deliveries = new Counter({
      name: 'context_bridge_webhook_deliveries_total',
      help: 'Podium webhook deliveries by outcome (accepted, duplicate, ignored, unauthorized, ...).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.events = new Counter({
      name: 'context_bridge_webhook_events_total',
      help: 'Webhook event processing attempts by event type and outcome.',
      labelNames: ['type', 'outcome'] as const,
      registers,
    });
    this.lag = new Histogram({
      name: 'context_bridge_webhook_lag_seconds',
      help: 'Seconds from a webhook delivery to its event being processed.',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
  }
}
