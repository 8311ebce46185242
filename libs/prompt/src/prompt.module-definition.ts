import { configurableRootModule } from '@app/common';

import { type TokenizerEncoding } from './tokenizer/token-counter';

/** Options for {@link PromptModule}. Every field has a default, so `forRoot({})` works. */
export interface PromptModuleOptions {
  /**
   * BPE vocabulary used for every count. `o200k_base` (default) is GPT-4o / GPT-4.1 / o-series;
   * `cl100k_base` is GPT-4 / GPT-3.5. Claude has no public tokenizer: o200k is a close stand-in.
   */
  encoding?: TokenizerEncoding;
  /** Replaces {@link DEFAULT_SYSTEM_PROMPT} for every prompt the service builds. */
  systemPrompt?: string;
}

export const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: PROMPT_OPTIONS } =
  configurableRootModule<PromptModuleOptions>();
