import { Inject, Injectable } from '@nestjs/common';

import { type PromptExcerpt } from './assembly/blocks';
import { buildPrompt, type BuildPromptInput, type BuiltPrompt } from './assembly/build-prompt';
import {
  type BudgetedExcerpt,
  type BudgetResult,
  enforceBudget,
  type EnforceBudgetOptions,
} from './budget/enforce-budget';
import { PROMPT_OPTIONS, type PromptModuleOptions } from './prompt.module-definition';
import { TokenCounter } from './tokenizer/token-counter';

/**
 * The injectable face of the library: the pure functions bound to the app's one
 * {@link TokenCounter} and configured system prompt, so callers never pass a tokenizer around.
 */
@Injectable()
export class PromptService {
  constructor(
    readonly counter: TokenCounter,
    @Inject(PROMPT_OPTIONS) private readonly options: PromptModuleOptions,
  ) {}

  /** Exact token count of `text` with the configured encoding. */
  count(text: string): number {
    return this.counter.count(text);
  }

  /** {@link enforceBudget} with the app's tokenizer. */
  enforceBudget<T extends BudgetedExcerpt>(
    excerpts: readonly T[],
    maxTokens: number,
    options?: EnforceBudgetOptions,
  ): BudgetResult<T> {
    return enforceBudget(excerpts, maxTokens, this.counter, options);
  }

  /** {@link buildPrompt} with the app's tokenizer; the module's system prompt unless overridden. */
  buildPrompt<T extends PromptExcerpt>(
    input: Omit<BuildPromptInput<T>, 'counter'>,
  ): BuiltPrompt<T> {
    return buildPrompt({
      ...input,
      systemPrompt: input.systemPrompt ?? this.options.systemPrompt,
      counter: this.counter,
    });
  }
}
