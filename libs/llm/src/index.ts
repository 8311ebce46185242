/**
 * LlmModule: streaming answer generation for R42 chat.
 *
 * - `LlmService`: what callers inject. `stream(request, signal)` yields text deltas of the
 *   configured provider under a generation deadline (`timeoutMs`) and a maximum answer
 *   length (`maxAnswerChars`); aborting `signal` cancels the upstream request.
 * - `LlmModule.forRoot({ provider, ... })`: `extractive` (embedded default: the
 *   best-matching sentences of the retrieved passages), `anthropic` (Claude via the
 *   official SDK, streaming), `openai` (Chat Completions via the official SDK, streaming).
 * - `LlmProvider` / `LLM_PROVIDER`: the port and the raw provider's token (override it in
 *   tests; `LlmService` wraps whatever it resolves to).
 *
 * Failures reject with `DependencyError('llm_failed')` and a message safe to show.
 */
export {
  AnthropicLlmProvider,
  type AnthropicLlmOptions,
  DEFAULT_ANTHROPIC_MODEL,
} from './anthropic/anthropic-llm.provider';
export {
  ExtractiveLlmProvider,
  type ExtractiveLlmOptions,
} from './extractive/extractive-llm.provider';
export { selectAnswer, type SelectionOptions } from './extractive/select-sentences';
export {
  type ChatTurn,
  type GenerationRequest,
  LLM_PROVIDER,
  LLM_PROVIDERS,
  type LlmInfo,
  type LlmProvider,
  type LlmProviderName,
} from './interfaces/llm-provider.interface';
export { LlmModule } from './llm.module';
export { DEFAULT_LLM_OPTIONS, LLM_OPTIONS, type LlmModuleOptions } from './llm.module-definition';
export { createLlmProvider } from './llm.providers';
export { type LlmLimits, LlmService } from './llm.service';
export {
  DEFAULT_OPENAI_MODEL,
  OpenAiLlmProvider,
  type OpenAiLlmOptions,
} from './openai/openai-llm.provider';
