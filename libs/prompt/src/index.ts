export {
  contactLines,
  DEFAULT_SYSTEM_PROMPT,
  type PromptBlock,
  type PromptBlockName,
  type PromptContact,
  type PromptExcerpt,
} from './assembly/blocks';
export { buildPrompt, type BuildPromptInput, type BuiltPrompt } from './assembly/build-prompt';
export {
  type BudgetedExcerpt,
  type BudgetResult,
  DEFAULT_MIN_TRUNCATED_TOKENS,
  enforceBudget,
  type EnforceBudgetOptions,
} from './budget/enforce-budget';
export { type KeepSide, truncateToTokens, type TruncateResult } from './budget/truncate';
export { PromptModule } from './prompt.module';
export { PROMPT_OPTIONS, type PromptModuleOptions } from './prompt.module-definition';
export { PromptService } from './prompt.service';
export {
  memoizeCounter,
  TokenCounter,
  type TokenCounterLike,
  type TokenizerEncoding,
} from './tokenizer/token-counter';
