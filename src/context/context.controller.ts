import { inSpan } from '@app/common';
import { type BuiltPrompt } from '@app/prompt';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerScope, type LocationScope } from '../auth/principal';
import { ArrivedAt } from '../common/arrival';
import { ContextBundle, ContextFetchRequestDto, type HistoricalExcerpt } from './context.dto';
import { ContextService } from './context.service';
import { ContextPromptRequestDto, ContextPromptResponseDto } from './context-prompt.dto';
import { ContextPromptService } from './context-prompt.service';
import { bundleAttributes } from './context-spans';

@ApiTags('context bridge')
@Controller('context')
export class ContextController {
  constructor(
    private readonly context: ContextService,
    private readonly prompt: ContextPromptService,
  ) {}

  /** The spec's `context_fetch`. */
  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Context bundle for a live transcript chunk, inside a hard deadline',
    description:
      'Live contact fields (they win) + redacted, reranked history under a token budget. A stage that misses the deadline is skipped and `meta.partial` says so. A location-bound key gets 403 for a location outside its binding; a contact outside it reads as unknown (contact.error 404). `explain: true` adds the scored candidate pool, redactions per excerpt and a stage waterfall (`explain`).',
  })
  @ApiOkResponse({ type: ContextBundle })
  fetch(
    @Body() body: ContextFetchRequestDto,
    @ArrivedAt() arrivedAt: number,
    @CallerScope() scope?: LocationScope,
  ): Promise<ContextBundle> {
    return inSpan(
      'context.build',
      () => this.context.build(body, scope, arrivedAt),
      bundleAttributes,
    );
  }

  /** The spec's `transcript_to_llm`. */
  @Post('prompt')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Structured LLM prompt for a transcript turn (the spec’s transcript_to_llm)',
  })
  @ApiOkResponse({ type: ContextPromptResponseDto })
  buildPrompt(
    @Body() body: ContextPromptRequestDto,
    @ArrivedAt() arrivedAt: number,
    @CallerScope() scope?: LocationScope,
  ): Promise<BuiltPrompt<HistoricalExcerpt>> {
    return this.prompt.build(body, scope, arrivedAt);
  }
}
