import { safeErrorText } from '@app/common';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';

import { type CoalescerConfig } from './coalescer.config';
import { COALESCER_CONFIG, COALESCER_STATE_STORE } from './coalescer.constants';
import { type CoalescerStateStore } from './interfaces/coalescer-state-store.interface';
import { overlapLength, words, wordTail } from './tail';

/** What {@link TranscriptCoalescer.feed} returns. */
export interface CoalescedQuery {
  /**
   * The text to embed: the previous tail, then the chunk, whitespace runs collapsed to one
   * space (words the transcriber repeated from the tail are not doubled).
   */
  query: string;
  /** The previous tail that was prepended ('' when there was none). */
  tail: string;
  /**
   * True when the state store failed for this chunk: the query may lack the previous tail,
   * or this chunk's tail was not saved for the next one. The request still succeeds.
   */
  degraded: boolean;
}

/**
 * Sliding-window coalescing of live transcript chunks, per `call_id`. The transcriber cuts
 * every ~800 ms regardless of meaning, so "my order number is" / "ABC-12345" arrive apart
 * and neither retrieves the order. Each chunk is embedded together with a word-bounded tail
 * of what came before; the stored tail is taken from tail + chunk, so several very short
 * chunks still accumulate ("my order" / "number is" / "ABC-12345").
 *
 * Chunks of one call are assumed to arrive in order, one at a time (they are 800 ms apart).
 * Two concurrent chunks of the same call race: the later write wins, nothing breaks.
 */
@Injectable()
export class TranscriptCoalescer implements OnApplicationShutdown {
  private readonly logger = new Logger(TranscriptCoalescer.name);
  /** Logs the first failure of an outage and the recovery, not every request in between. */
  private storeFailing = false;

  constructor(
    @Inject(COALESCER_STATE_STORE) private readonly store: CoalescerStateStore,
    @Inject(COALESCER_CONFIG) private readonly config: CoalescerConfig,
  ) {}

  /** Builds the embed query for `chunk`; without a `callId` there is no state to use. */
  async feed(callId: string | undefined, chunk: string): Promise<CoalescedQuery> {
    const chunkWs = words(chunk);
    if (!callId || this.config.tailWords === 0) {
      return { query: chunkWs.join(' '), tail: '', degraded: false };
    }
    let degraded = false;
    const previous = await this.guard(() => this.store.get(callId), undefined);
    degraded ||= previous.failed;

    const tailWs = words(previous.value ?? '');
    const fresh = chunkWs.slice(overlapLength(tailWs, chunkWs));
    const query = [...tailWs, ...fresh].join(' ');

    const next = wordTail([...tailWs, ...fresh], this.config.tailWords, this.config.maxTailChars);
    const saved = await this.guard(
      () =>
        next.length > 0
          ? this.store.set(callId, next, this.config.ttlMs)
          : this.store.delete(callId),
      undefined,
    );
    degraded ||= saved.failed;
    return { query, tail: tailWs.join(' '), degraded };
  }

  /**
   * The query {@link feed} would build for `chunk` now, saving nothing: speculation on an
   * interim transcript must not move the tail the final chunk will be coalesced with.
   */
  async preview(callId: string | undefined, chunk: string): Promise<string> {
    const chunkWs = words(chunk);
    if (!callId || this.config.tailWords === 0) {
      return chunkWs.join(' ');
    }
    const previous = await this.guard(() => this.store.get(callId), undefined);
    const tailWs = words(previous.value ?? '');
    return [...tailWs, ...chunkWs.slice(overlapLength(tailWs, chunkWs))].join(' ');
  }

  /** Drops a call's state, e.g. when the call ends. Never throws. */
  async forget(callId: string): Promise<void> {
    await this.guard(() => this.store.delete(callId), undefined);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.store.close();
  }

  private async guard<T>(
    work: () => Promise<T>,
    fallback: T,
  ): Promise<{ value: T; failed: boolean }> {
    try {
      const value = await work();
      if (this.storeFailing) {
        this.storeFailing = false;
        this.logger.log('coalescer state store recovered');
      }
      return { value, failed: false };
    } catch (error) {
      if (!this.storeFailing) {
        this.storeFailing = true;
        // Redis errors can quote a command's arguments (transcript words): class and code only.
        this.logger.warn(
          `coalescer state store failed (${safeErrorText(error)}); ` +
            'coalescing without previous tails until it recovers',
        );
      }
      return { value: fallback, failed: true };
    }
  }
}
