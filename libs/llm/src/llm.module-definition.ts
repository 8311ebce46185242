import { ConfigurableModuleBuilder } from '@nestjs/common';

import { type LlmProviderName } from './interfaces/llm-provider.interface';

/** The shape of `AppConfig['llm']`, so `forRoot({ isGlobal: true, ...config.llm })` fits. */
export interface LlmModuleOptions {
  provider: LlmProviderName;
  /** Defaults: `claude-haiku-4-5-20251001` (anthropic), `gpt-4o-mini` (openai). */
  model?: string;
  /** The vendor's `max_tokens` / `max_completion_tokens`. Default 1000 (the R42 spec's). */
  maxTokens?: number;
  /** Whole-answer generation deadline, first byte to last delta. Default 30 s. */
  timeoutMs?: number;
  /** Longest answer streamed, in characters; generation is cut off there. Default 4000. */
  maxAnswerChars?: number;
  anthropicApiKey?: string;
  /** Overrides `https://api.anthropic.com` (a gateway, a proxy, a test server). */
  anthropicBaseUrl?: string;
  openaiApiKey?: string;
  /** Overrides `https://api.openai.com/v1` (an OpenAI-compatible server, a test server). */
  openaiBaseUrl?: string;
  /**
   * SDK retries of a failed request before the first byte (429, 5xx, 529, connection
   * errors). Default 1. They never outlive `timeoutMs`: the deadline aborts them.
   */
  maxRetries?: number;
}

export const DEFAULT_LLM_LIMITS = { maxTokens: 1000, timeoutMs: 30_000, maxAnswerChars: 4000 };

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: LLM_OPTIONS } =
  new ConfigurableModuleBuilder<LlmModuleOptions>()
    .setClassMethodName('forRoot')
    .setExtras({ isGlobal: true }, (def, extras) => ({ ...def, global: extras.isGlobal }))
    .build();
