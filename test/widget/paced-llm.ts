import { setTimeout as delay } from 'node:timers/promises';

import {
  createLlmProvider,
  type GenerationRequest,
  LLM_OPTIONS,
  LLM_PROVIDER,
  type LlmProvider,
} from '@app/llm';
import { type TestingModuleBuilder } from '@nestjs/testing';

/** What one answer stream did, as the server saw it. */
export interface StreamRecord {
  pieces: number;
  /** Resolves when the server aborted the stream (the client went away). */
  aborted: Promise<void>;
}

/**
 * The real configured answerer (extractive on the embedded defaults), paced like a model:
 * the extractive answer is computed at once and would reach the browser in one read, so
 * there would be no streaming to watch and nothing in flight to abort. `delayMs` spaces the
 * pieces out; `stallAfter` stops sending after that many pieces (or before the end, if the
 * answer is shorter) until the request aborts.
 */
export class PacedLlm {
  delayMs = 0;
  stallAfter = Infinity;
  readonly streams: StreamRecord[] = [];

  /** Overrides the app's LLM_PROVIDER with the paced wrapper of the one config picks. */
  readonly override = (builder: TestingModuleBuilder): TestingModuleBuilder =>
    builder.overrideProvider(LLM_PROVIDER).useFactory({
      factory: (options: Parameters<typeof createLlmProvider>[0]) =>
        this.wrap(createLlmProvider(options)),
      inject: [LLM_OPTIONS],
    });

  private wrap(inner: LlmProvider): LlmProvider {
    return { info: inner.info, stream: (request, signal) => this.paced(inner, request, signal) };
  }

  private async *paced(
    inner: LlmProvider,
    request: GenerationRequest,
    signal: AbortSignal,
  ): AsyncGenerator<string> {
    let onAbort!: () => void;
    const aborted = new Promise<void>((resolve) => (onAbort = resolve));
    signal.addEventListener('abort', () => onAbort(), { once: true });
    const record: StreamRecord = { pieces: 0, aborted };
    this.streams.push(record);
    for await (const piece of inner.stream(request, signal)) {
      if (record.pieces >= this.stallAfter) {
        await aborted;
      }
      if (this.delayMs > 0) {
        await delay(this.delayMs, undefined, { signal }).catch(() => undefined);
      }
      if (signal.aborted) {
        throw new Error('aborted by the client');
      }
      record.pieces++;
      yield piece;
    }
    if (Number.isFinite(this.stallAfter)) {
      // A shorter answer than `stallAfter` must not finish either: the test closes mid-answer.
      await aborted;
      throw new Error('aborted by the client');
    }
  }
}
