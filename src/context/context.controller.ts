import { inSpan, InvalidInputError } from '@app/common';
import { type BuiltPrompt } from '@app/prompt';
import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiAcceptedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type FastifyReply, type FastifyRequest } from 'fastify';

import { CallerScope, type LocationScope } from '../auth/principal';
import { callerTracker } from '../auth/rate-limiter';
import { RequireScope } from '../auth/scopes';
import { ArrivedAt } from '../common/arrival';
import {
  ContextBundle,
  ContextFetchRequestDto,
  type HistoricalExcerpt,
  InterimAccepted,
} from './context.dto';
import { ContextService } from './context.service';
import { ContextPromptRequestDto, ContextPromptResponseDto } from './context-prompt.dto';
import { ContextPromptService } from './context-prompt.service';
import { bundleAttributes } from './context-spans';

@ApiTags('context bridge')
@RequireScope('context:read')
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
  @ApiAcceptedResponse({ type: InterimAccepted, description: 'An interim chunk (is_final: false).' })
  async fetch(
    @Body() body: ContextFetchRequestDto,
    @ArrivedAt() arrivedAt: number,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @CallerScope() scope?: LocationScope,
  ): Promise<ContextBundle | InterimAccepted> {
    // Calls are tracked per caller as the rate limiter counts them (a key by name, else IP).
    const caller = callerTracker(request);
    if (body.is_final === false) {
      if (!body.call_id) {
        throw new InvalidInputError('call_id_required', 'An interim chunk needs its call_id.');
      }
      const speculation = this.context.interim(body, scope, caller);
      void reply.status(202);
      return { accepted: true, speculation };
    }
    return inSpan(
      'context.build',
      () => this.context.build(body, scope, arrivedAt, caller),
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
    @Req() request: FastifyRequest,
    @CallerScope() scope?: LocationScope,
  ): Promise<BuiltPrompt<HistoricalExcerpt>> {
    return this.prompt.build(body, scope, arrivedAt, callerTracker(request));
  }
}
