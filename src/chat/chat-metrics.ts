import { Injectable } from '@nestjs/common';
import { Counter, Histogram } from 'prom-client';

import { MetricsService } from '../metrics/metrics.service';

/** How one chat ended, as the client saw it. */
export type ChatOutcome = 'answered' | 'out_of_scope' | 'error' | 'client_gone';

/** R42 chat metrics on the app's one registry; labels are bounded outcomes. */
@Injectable()
export class ChatMetrics {
  readonly outcomes: Counter<'outcome'>;
  readonly firstChunk: Histogram;

  constructor(metrics: MetricsService) {
    const registers = [metrics.registry];
    this.outcomes = new Counter({
      name: 'context_bridge_chat_streams_total',
      help: 'R42 chat streams by outcome (answered, out_of_scope, error, client_gone).',
      labelNames: ['outcome'] as const,
      registers,
    });
    this.firstChunk = new Histogram({
      name: 'context_bridge_chat_first_chunk_seconds',
      help: 'Seconds from a /chat request to its first answer chunk (retrieval + model + hold-back).',
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16],
      registers,
    });
  }

  /** Follows the events of one stream; call `end()` once it stops. */
  track(started: number): { see(type: string): void; end(aborted: boolean): void } {
    let outcome: ChatOutcome | undefined;
    let chunked = false;
    return {
      see: (type) => {
        if (type === 'chunk' && !chunked) {
          chunked = true;
          this.firstChunk.observe((performance.now() - started) / 1000);
        }
        outcome =
          type === 'citations'
            ? 'answered'
            : type === 'out_of_scope'
              ? 'out_of_scope'
              : type === 'error'
                ? 'error'
                : outcome;
      },
      end: (aborted) =>
        this.outcomes.inc({ outcome: aborted ? 'client_gone' : (outcome ?? 'error') }),
    };
  }
}
