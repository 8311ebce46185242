import { setImmediate as nextTurn } from 'node:timers/promises';

import { DependencyError } from '@app/common';

import {
  type GenerationRequest,
  type LlmInfo,
  type LlmProvider,
} from '../interfaces/llm-provider.interface';
import { DEFAULT_SELECTION, selectAnswer, type SelectionOptions } from './select-sentences';

export interface ExtractiveLlmOptions {
  /** The configured `max_tokens`; the answer budget is at most about 4 characters a token. */
  maxTokens?: number;
  /** Words per streamed piece. Default 3. */
  wordsPerChunk?: number;
  selection?: Partial<SelectionOptions>;
}

/**
 * The embedded default: no generative weights exist offline, so the answer is the
 * best-matching sentences of the retrieved passages (see `selectAnswer`), streamed a few
 * words at a time like a model's deltas. It never emits text that is not in the passages,
 * and when no sentence shares a term with the question it yields nothing at all, which the
 * chat's under-20-tokens rule turns into `out_of_scope`. It ignores `system` and `messages`.
 * Deterministic: the same request always streams the same pieces.
 */
export class ExtractiveLlmProvider implements LlmProvider {
  readonly info: LlmInfo = { provider: 'extractive', model: 'extractive-bm25-sentences' };
  private readonly selection: SelectionOptions;
  private readonly wordsPerChunk: number;

  constructor(options: ExtractiveLlmOptions = {}) {
    const budgetChars = Math.min(
      options.selection?.budgetChars ?? DEFAULT_SELECTION.budgetChars,
      (options.maxTokens ?? Infinity) * 4,
    );
    this.selection = { ...DEFAULT_SELECTION, ...options.selection, budgetChars };
    this.wordsPerChunk = Math.max(1, options.wordsPerChunk ?? 3);
  }

  async *stream(request: GenerationRequest, signal: AbortSignal): AsyncGenerator<string> {
    const answer = selectAnswer(request.question, request.passages, this.selection);
    const words = answer.match(/\S+\s*/g) ?? [];
    for (let i = 0; i < words.length; i += this.wordsPerChunk) {
      // One event-loop turn per piece: the consumer's writes reach the socket as separate
      // chunks, and an abort (the client left) is seen between pieces.
      await nextTurn();
      if (signal.aborted) {
        throw new DependencyError('llm_failed', 'Extractive answer aborted.');
      }
      yield words.slice(i, i + this.wordsPerChunk).join('');
    }
  }
}
