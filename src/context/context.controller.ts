import { type BuiltPrompt } from '@app/prompt';
import { PromptService } from '@app/prompt';
import { RedactionService } from '@app/redaction';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';

import { ContextPromptRequestDto } from './context-prompt.dto';
import { type ContextBundle, ContextRequestDto, type HistoricalExcerpt } from './context.dto';
import { ContextService } from './context.service';

/** Default budget of the whole prompt built by /context/prompt (the spec's example uses 4000). */
const PROMPT_MAX_TOKENS = 4000;

@Controller('context')
export class ContextController {
  constructor(
    private readonly context: ContextService,
    private readonly prompt: PromptService,
    private readonly redaction: RedactionService,
  ) {}

  /** The spec's `context_fetch`. */
  @Post()
  @HttpCode(200)
  fetch(@Body() body: ContextRequestDto): Promise<ContextBundle> {
    return this.context.build(body);
  }

  /** The spec's `transcript_to_llm`. */
  @Post('prompt')
  @HttpCode(200)
  async buildPrompt(
    @Body() body: ContextPromptRequestDto,
  ): Promise<BuiltPrompt<HistoricalExcerpt>> {
    // A caller-supplied bundle is historical text like any other: it is redacted here too.
    const bundle = body.bundle
      ? {
          contact: body.bundle.contact,
          historical_excerpts: this.redaction.redactBundle(
            body.bundle.historical_excerpts as HistoricalExcerpt[],
          ).excerpts,
        }
      : await this.context.build(body);
    return this.prompt.buildPrompt({
      systemPrompt: body.system_prompt,
      contact: bundle.contact,
      excerpts: bundle.historical_excerpts,
      transcript: body.transcript,
      maxTokens: body.prompt_max_tokens ?? PROMPT_MAX_TOKENS,
    });
  }
}
