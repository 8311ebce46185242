import { DependencyError, DomainError, untilAborted } from '@app/common';
import { Inject, Injectable, Logger } from '@nestjs/common';

import {
  type GenerationRequest,
  LLM_PROVIDER,
  type LlmInfo,
  type LlmProvider,
  type LlmProviderName,
} from './interfaces/llm-provider.interface';
import { DEFAULT_LLM_OPTIONS, LLM_OPTIONS, type LlmModuleOptions } from './llm.module-definition';

export type LlmLimits = Pick<LlmModuleOptions, 'timeoutMs' | 'maxAnswerChars'>;

/** How each provider is named in the messages callers may show. */
const LABELS: Record<LlmProviderName, string> = {
  extractive: 'extractive',
  anthropic: 'Anthropic',
  openai: 'OpenAI',
};

/**
 * What the chat injects: the configured provider with both limits every provider keeps.
 *
 * - **Deadline.** `timeoutMs` covers the whole answer, first byte to last delta. It joins
 *   the caller's signal (`AbortSignal.any`) in the signal handed to the provider, so the
 *   SDK cancels the HTTP request, and each wait for the next delta is also raced against
 *   it, so even a provider that ignores its signal cannot hold the caller past it.
 * - **Length.** Once `maxAnswerChars` characters have been yielded the answer ends
 *   normally (the last delta cut to fit) and the upstream request is aborted: nothing more
 *   is generated or paid for.
 *
 * Rejections are `DependencyError('llm_failed')`; a caller abort rejects too (the caller
 * knows its own signal), and so does a consumer that stops iterating early, which also
 * aborts the upstream request.
 */
@Injectable()
export class LlmService implements LlmProvider {
  private readonly logger = new Logger(LlmService.name);
  private readonly timeoutMs: number;
  private readonly maxAnswerChars: number;

  constructor(
    @Inject(LLM_PROVIDER) private readonly provider: LlmProvider,
    @Inject(LLM_OPTIONS) limits: LlmLimits,
  ) {
    this.timeoutMs = limits.timeoutMs ?? DEFAULT_LLM_OPTIONS.timeoutMs;
    this.maxAnswerChars = limits.maxAnswerChars ?? DEFAULT_LLM_OPTIONS.maxAnswerChars;
  }

  get info(): LlmInfo {
    return this.provider.info;
  }

  async *stream(request: GenerationRequest, signal: AbortSignal): AsyncGenerator<string> {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.timeoutMs);
    timer.unref();
    const stop = new AbortController();
    const upstream = AbortSignal.any([signal, deadline.signal, stop.signal]);
    const iterator = this.provider.stream(request, upstream)[Symbol.asyncIterator]();
    let emitted = 0;
    let previousEndsInWord = false;
    let exhausted = false;
    try {
      for (;;) {
        const next = await untilAborted(iterator.next(), upstream);
        if (next.done) {
          exhausted = true;
          if (upstream.aborted) {
            throw new Error('aborted');
          }
          return;
        }
        if (!next.value) {
          continue;
        }
        const room = this.maxAnswerChars - emitted;
        if (next.value.length < room) {
          emitted += next.value.length;
          previousEndsInWord = /\S$/.test(next.value);
          yield next.value;
          continue;
        }
        const last = cutToFit(next.value, room, emitted === 0 || previousEndsInWord);
        if (last) {
          yield last;
        }
        this.logger.log(
          `${LABELS[this.info.provider]} answer cut at LLM_MAX_ANSWER_CHARS=${this.maxAnswerChars}`,
        );
        return;
      }
    } catch (error) {
      throw this.explain(error, signal, deadline.signal);
    } finally {
      clearTimeout(timer);
      // Ends the upstream request whatever happened: finished, cut, failed or abandoned.
      stop.abort();
      if (!exhausted) {
        // Not awaited: a provider stuck in a `next()` would hold this `return()` forever.
        iterator.return?.().catch(() => undefined);
      }
    }
  }

  private explain(error: unknown, caller: AbortSignal, deadline: AbortSignal): DomainError {
    const name = LABELS[this.info.provider];
    if (caller.aborted) {
      return new DependencyError('llm_failed', `The ${name} answer was aborted by the caller.`);
    }
    if (deadline.aborted) {
      return new DependencyError(
        'llm_failed',
        `The ${name} answer exceeded its ${this.timeoutMs} ms deadline.`,
      );
    }
    if (error instanceof DomainError) {
      return error;
    }
    // A provider bug, not a vendor failure: its message could carry anything, so it stays
    // in the log and the caller gets a generic reason.
    this.logger.error(`the ${name} provider threw ${(error as Error | undefined)?.name}`);
    return new DependencyError('llm_failed', `The ${name} answer failed unexpectedly.`);
  }
}

/**
 * The first `room` characters of `text`, backed off to the last whitespace when that would
 * split a word, never splitting a surrogate pair. When the cut falls inside the piece's
 * first word, nothing is kept unless `keepPartialWord` (the piece continues a word already
 * emitted, or nothing was emitted yet): then the exact cut is all there is.
 */
export function cutToFit(text: string, room: number, keepPartialWord = false): string {
  if (text.length <= room) {
    return text;
  }
  let end = Math.max(0, room);
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) {
    end -= 1;
  }
  const head = text.slice(0, end);
  if (!/\S/.test(text.charAt(end))) {
    return head;
  }
  const space = head.search(/\s\S*$/);
  if (space >= 0) {
    return head.slice(0, space);
  }
  return keepPartialWord ? head : '';
}
