import { BACKGROUND_THREAD_NICE, isBackgroundWork } from '@app/common';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';

import { REDACTION_OPTIONS, type RedactionModuleOptions } from './redaction.module-definition';
import { RedactionService } from './redaction.service';
import {
  type BundleExcerpt,
  bundleOf,
  type RedactedBundle,
  type RedactionResult,
} from './redactor';
import { RedactionPool } from './worker/redaction-pool';

/**
 * Texts at least this long are redacted on a worker thread. Below it the inline cost (a
 * few milliseconds at worst, see `bench:redact-adversarial`) is less than the hand-off.
 */
export const OFFLOAD_MIN_CHARS = 8 * 1024;

/**
 * Which worker pool a large text goes to: `live` (a caller's bundle in `/context/prompt`,
 * normal priority) or `background` (`/redact`, ingest, background work such as MCP: a
 * thread at {@link BACKGROUND_THREAD_NICE} with a short queue of its own, so a flood of
 * adversarial texts neither takes the cores from live requests nor fills the live queue).
 */
export type RedactionPriority = 'live' | 'background';

/** Large background redactions waiting before more are refused (503 `redaction_busy`). */
export const BACKGROUND_REDACTION_QUEUE = 8;

/**
 * Redaction for caller-supplied texts that may be large (`/redact`, a caller's bundle in
 * `/context/prompt`, ingested and webhook messages): the same result as
 * {@link RedactionService}, but texts, or bundles, of {@link OFFLOAD_MIN_CHARS} or more run
 * on a worker pool (one thread, started on first use, bounded queue), so they never hold
 * the event loop.
 */
@Injectable()
export class RedactionOffloadService implements OnModuleDestroy {
  private readonly pools: Partial<Record<RedactionPriority, RedactionPool>> = {};

  constructor(
    private readonly inline: RedactionService,
    @Inject(REDACTION_OPTIONS) private readonly options: RedactionModuleOptions,
  ) {}

  /**
   * @param priority the pool a large text runs on; background work defaults to `background`.
   * @throws RedactionBusyError (503 `redaction_busy`) when that pool's queue is full.
   */
  async redact(
    text: string,
    priority: RedactionPriority = isBackgroundWork() ? 'background' : 'live',
  ): Promise<RedactionResult> {
    if (text.length < OFFLOAD_MIN_CHARS) {
      return this.inline.redact(text);
    }
    return this.workers(priority).redact(text);
  }

  /**
   * {@link RedactionService.redactBundle} for a caller's excerpts: on a worker, in one
   * hand-off, when their contents together reach {@link OFFLOAD_MIN_CHARS} (a hundred
   * small excerpts cost what one large one does).
   * @throws RedactionBusyError (503 `redaction_busy`) when the workers' queue is full.
   */
  async redactBundle<T extends BundleExcerpt>(
    excerpts: readonly T[],
  ): Promise<RedactedBundle<T>> {
    let chars = 0;
    for (const e of excerpts) {
      chars += e.content.length;
    }
    if (chars < OFFLOAD_MIN_CHARS) {
      return this.inline.redactBundle(excerpts);
    }
    const priority = isBackgroundWork() ? 'background' : 'live';
    const texts = excerpts.map((e) => e.content);
    return bundleOf(excerpts, await this.workers(priority).redactAll(texts));
  }

  /** Each pool starts on first use: a replica that never sees a large text starts neither. */
  private workers(priority: RedactionPriority): RedactionPool {
    const { entities, phoneRegions } = this.options;
    const redactor = { entities, phoneRegions };
    this.pools[priority] ??=
      priority === 'live'
        ? new RedactionPool({ redactor })
        : new RedactionPool({
            redactor,
            nice: BACKGROUND_THREAD_NICE,
            maxQueue: BACKGROUND_REDACTION_QUEUE,
          });
    return this.pools[priority];
  }

  /** The pools started so far, for tests and gauges. */
  get started(): Partial<Record<RedactionPriority, RedactionPool>> {
    return { ...this.pools };
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(Object.values(this.pools).map((p) => p.close()));
  }
}
