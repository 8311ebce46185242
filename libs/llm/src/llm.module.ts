import { Module } from '@nestjs/common';

import { ConfigurableModuleClass } from './llm.module-definition';
import { llmProvider } from './llm.providers';
import { LlmService } from './llm.service';

/**
 * Answer generation for R42 chat, with the provider chosen by config (`extractive`,
 * `anthropic`, `openai`). Inject `LlmService`: it streams the configured provider's deltas
 * under the generation deadline and the maximum answer length.
 */
@Module({ providers: [llmProvider, LlmService], exports: [LlmService] })
export class LlmModule extends ConfigurableModuleClass {}
