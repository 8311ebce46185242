import { configurableRootModule } from '@app/common';

import { type LlmProviderName } from './interfaces/llm-provider.interface';

/** The shape of `AppConfig['llm']`, so `forRoot({ isGlobal: true, ...config.llm })` fits. */
export interface LlmModuleOptions {
  provider: LlmProviderName;
  /** Defaults: `claude-haiku-4-5-20251001` (anthropic), `gpt-4o-mini` (openai). */
  model?: string;
  /** The vendor's `max_tokens` / `max_completion_tokens` (the R42 spec's 1000). */
  maxTokens?: number;
  /** Whole-answer generation deadline, first byte to last delta. */
  timeoutMs?: number;
  /** Longest answer streamed, in characters; generation is cut off there. */
  maxAnswerChars?: number;
  anthropicApiKey?: string;
  /** Overrides `https://api.anthropic.com` (a gateway, a proxy, a test server). */
  anthropicBaseUrl?: string;
  openaiApiKey?: string;
  /** Overrides `https://api.openai.com/v1` (an OpenAI-compatible server, a test server). */
  openaiBaseUrl?: string;
  /**
   * SDK retries of a failed request before the first byte (429, 5xx, 529, connection
   * errors). They never outlive `timeoutMs`: the deadline aborts them.
   */
  maxRetries?: number;
}

/** Every default of {@link LlmModuleOptions}, applied by the lib (its providers included). */
export const DEFAULT_LLM_OPTIONS = {
  maxTokens: 1000,
  timeoutMs: 30_000,
  maxAnswerChars: 4000,
  maxRetries: 1,
} satisfies Partial<LlmModuleOptions>;

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: LLM_OPTIONS } =
  configurableRootModule<LlmModuleOptions>();
