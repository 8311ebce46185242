import { ConfigurationError } from '@app/common';
import { type Provider } from '@nestjs/common';

import { AnthropicLlmProvider } from './anthropic/anthropic-llm.provider';
import { ExtractiveLlmProvider } from './extractive/extractive-llm.provider';
import { LLM_PROVIDER, type LlmProvider } from './interfaces/llm-provider.interface';
import { DEFAULT_LLM_LIMITS, LLM_OPTIONS, type LlmModuleOptions } from './llm.module-definition';
import { OpenAiLlmProvider } from './openai/openai-llm.provider';

/**
 * Picks the answer generator from config. The switch is exhaustive, so adding a name to
 * `LlmProviderName` fails to compile until it is handled here. The limits (deadline,
 * answer length) are not applied here but by `LlmService`, around whichever is chosen.
 */
export function createLlmProvider(options: LlmModuleOptions): LlmProvider {
  const maxTokens = options.maxTokens ?? DEFAULT_LLM_LIMITS.maxTokens;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LLM_LIMITS.timeoutMs;
  switch (options.provider) {
    case 'extractive':
      return new ExtractiveLlmProvider({ maxTokens });
    case 'anthropic':
      // An empty key is only meaningful behind a gateway that adds its own credentials.
      if (!options.anthropicApiKey && !options.anthropicBaseUrl) {
        throw new ConfigurationError('LLM_PROVIDER=anthropic needs ANTHROPIC_API_KEY.');
      }
      return new AnthropicLlmProvider({
        apiKey: options.anthropicApiKey ?? '',
        baseURL: options.anthropicBaseUrl,
        model: options.model,
        maxTokens,
        timeoutMs,
        maxRetries: options.maxRetries,
      });
    case 'openai':
      if (!options.openaiApiKey && !options.openaiBaseUrl) {
        throw new ConfigurationError('LLM_PROVIDER=openai needs OPENAI_API_KEY.');
      }
      return new OpenAiLlmProvider({
        apiKey: options.openaiApiKey ?? '',
        baseURL: options.openaiBaseUrl,
        model: options.model,
        maxTokens,
        timeoutMs,
        maxRetries: options.maxRetries,
      });
  }
}

export const llmProvider: Provider = {
  provide: LLM_PROVIDER,
  inject: [LLM_OPTIONS],
  useFactory: createLlmProvider,
};
