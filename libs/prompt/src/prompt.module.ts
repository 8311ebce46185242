import { Module, type Provider } from '@nestjs/common';

import {
  ConfigurableModuleClass,
  PROMPT_OPTIONS,
  type PromptModuleOptions,
} from './prompt.module-definition';
import { PromptService } from './prompt.service';
import { TokenCounter } from './tokenizer/token-counter';

/**
 * One tokenizer per process, built at boot: the rank table is parsed once and the encoder's
 * first calls (JIT, merge cache; tens of ms) are paid here rather than by the first request.
 */
const tokenCounterProvider: Provider = {
  provide: TokenCounter,
  inject: [PROMPT_OPTIONS],
  useFactory: (options: PromptModuleOptions) => {
    const counter = new TokenCounter(options.encoding ?? 'o200k_base');
    counter.count('Warm-up: the customer asked about order ABC-12345 on 2026-12-02. '.repeat(20));
    return counter;
  },
};

/** Tokenizer, token budget and prompt assembly. `forRoot({ encoding, isGlobal })`. */
@Module({
  providers: [tokenCounterProvider, PromptService],
  exports: [TokenCounter, PromptService],
})
export class PromptModule extends ConfigurableModuleClass {}
