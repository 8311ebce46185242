import { type BuiltPrompt } from '@app/prompt';
import { PromptService } from '@app/prompt';
import { RedactionService } from '@app/redaction';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerScope, type LocationScope } from '../auth/principal';
import { scopedLocations } from '../auth/tenant';
import { ContextPromptRequestDto, ContextPromptResponseDto } from './context-prompt.dto';
import { ContextBundle, ContextRequestDto, type HistoricalExcerpt } from './context.dto';
import { ContextService } from './context.service';

/** Default budget of the whole prompt built by /context/prompt (the spec's example uses 4000). */
const PROMPT_MAX_TOKENS = 4000;

@ApiTags('context bridge')
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
  @ApiOperation({
    summary: 'Context bundle for a live transcript chunk, inside a hard deadline',
    description:
      'Live contact fields (they win) + redacted, reranked history under a token budget. A stage that misses the deadline is skipped and `meta.partial` says so. A location-bound key gets 403 for a location outside its binding; a contact outside it reads as unknown (contact.error 404).',
  })
  @ApiOkResponse({ type: ContextBundle })
  fetch(
    @Body() body: ContextRequestDto,
    @CallerScope() scope?: LocationScope,
  ): Promise<ContextBundle> {
    return this.context.build(body, scope);
  }

  /** The spec's `transcript_to_llm`. */
  @Post('prompt')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Structured LLM prompt for a transcript turn (the spec’s transcript_to_llm)',
  })
  @ApiOkResponse({ type: ContextPromptResponseDto })
  async buildPrompt(
    @Body() body: ContextPromptRequestDto,
    @CallerScope() scope?: LocationScope,
  ): Promise<BuiltPrompt<HistoricalExcerpt>> {
    // A bound key naming another location is refused on both paths, bundle or not.
    scopedLocations(scope, body.location_uid);
    // A caller-supplied bundle is historical text like any other: it is redacted here too.
    const bundle = body.bundle
      ? {
          contact: body.bundle.contact,
          historical_excerpts: this.redaction.redactBundle(
            body.bundle.historical_excerpts as HistoricalExcerpt[],
          ).excerpts,
        }
      : await this.context.build(body, scope);
    return this.prompt.buildPrompt({
      systemPrompt: body.system_prompt,
      contact: bundle.contact,
      excerpts: bundle.historical_excerpts,
      transcript: body.transcript,
      maxTokens: body.prompt_max_tokens ?? PROMPT_MAX_TOKENS,
    });
  }
}
