import { ConfigurationError } from '@app/common';
import { type Provider } from '@nestjs/common';

import { AnthropicLlmProvider } from './anthropic/anthropic-llm.provider';
import { ExtractiveLlmProvider } from './extractive/extractive-llm.provider';
import { LLM_PROVIDER, type LlmProvider } from './interfaces/llm-provider.interface';
import { DEFAULT_LLM_OPTIONS, LLM_OPTIONS, type LlmModuleOptions } from './llm.module-definition';
import { OpenAiLlmProvider } from './openai/openai-llm.provider';

/**
 * Picks the answer generator from config. The switch is exhaustive, so adding a name to
 * `LlmProviderName` fails to compile until it is handled here. The limits (deadline,
 * answer length) are not applied here but by `LlmService`, around whichever is chosen.
 */
export function createLlmProvider(options: LlmModuleOptions): LlmProvider {
  const maxTokens = options.maxTokens ?? DEFAULT_LLM_OPTIONS.maxTokens;
  /** What both vendor SDKs take; an empty key only works behind a gateway that adds its own. */
  const vendor = (variable: string, apiKey?: string, baseURL?: string) => {
    if (!apiKey && !baseURL) {
      throw new ConfigurationError(`LLM_PROVIDER=${options.provider} needs ${variable}.`);
    }
    return {
      apiKey: apiKey ?? '',
      baseURL,
      model: options.model,
      maxTokens,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
    };
  };
  switch (options.provider) {
    case 'extractive':
      return new ExtractiveLlmProvider({ maxTokens });
    case 'anthropic':
      return new AnthropicLlmProvider(
        vendor('ANTHROPIC_API_KEY', options.anthropicApiKey, options.anthropicBaseUrl),
      );
    case 'openai':
      return new OpenAiLlmProvider(
        vendor('OPENAI_API_KEY', options.openaiApiKey, options.openaiBaseUrl),
      );
  }
}

export const llmProvider: Provider = {
  provide: LLM_PROVIDER,
  inject: [LLM_OPTIONS],
  useFactory: createLlmProvider,
};
