import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';

import { REDACTION_OPTIONS, type RedactionModuleOptions } from './redaction.module-definition';
import { RedactionService } from './redaction.service';
import { bundleOf, type RedactedBundle, type RedactionResult } from './redactor';
import { RedactionPool } from './worker/redaction-pool';

/**
 * Texts at least this long are redacted on a worker thread. Below it the inline cost (a
 * few milliseconds at worst, see `bench:redact-adversarial`) is less than the hand-off.
 */
export const OFFLOAD_MIN_CHARS = 8 * 1024;

/**
 * Redaction for caller-supplied texts that may be large (`/redact`, a caller's bundle in
 * `/context/prompt`, ingested and webhook messages): the same result as
 * {@link RedactionService}, but texts, or bundles, of {@link OFFLOAD_MIN_CHARS} or more run
 * on a worker pool (one thread, started on first use, bounded queue), so they never hold
 * the event loop.
 */
@Injectable()
export class RedactionOffloadService implements OnModuleDestroy {
  private pool: RedactionPool | undefined;

  constructor(
    private readonly inline: RedactionService,
    @Inject(REDACTION_OPTIONS) private readonly options: RedactionModuleOptions,
  ) {}

  /** @throws RedactionBusyError (503 `redaction_busy`) when the workers' queue is full. */
  async redact(text: string): Promise<RedactionResult> {
    if (text.length < OFFLOAD_MIN_CHARS) {
      return this.inline.redact(text);
    }
    return this.workers().redact(text);
  }

  /**
   * {@link RedactionService.redactBundle} for a caller's excerpts: on a worker, in one
   * hand-off, when their contents together reach {@link OFFLOAD_MIN_CHARS} (a hundred
   * small excerpts cost what one large one does).
   * @throws RedactionBusyError (503 `redaction_busy`) when the workers' queue is full.
   */
  async redactBundle<T extends { content: string }>(
    excerpts: readonly T[],
  ): Promise<RedactedBundle<T>> {
    let chars = 0;
    for (const e of excerpts) {
      chars += e.content.length;
    }
    if (chars < OFFLOAD_MIN_CHARS) {
      return this.inline.redactBundle(excerpts);
    }
    return bundleOf(excerpts, await this.workers().redactAll(excerpts.map((e) => e.content)));
  }

  private workers(): RedactionPool {
    const { entities, phoneRegions } = this.options;
    this.pool ??= new RedactionPool({ redactor: { entities, phoneRegions } });
    return this.pool;
  }

  async onModuleDestroy(): Promise<void> {
    await this.pool?.close();
  }
}
