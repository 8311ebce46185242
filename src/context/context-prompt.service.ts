import { type BuiltPrompt, PromptService } from '@app/prompt';
import { RedactionOffloadService } from '@app/redaction';
import { Injectable } from '@nestjs/common';

import { type LocationScope } from '../auth/principal';
import { scopedLocations } from '../auth/tenant';
import { type HistoricalExcerpt } from './context.dto';
import { ContextService } from './context.service';
import { type ContextPromptRequestDto } from './context-prompt.dto';

/** Default budget of the whole prompt built by /context/prompt (the spec's example uses 4000). */
const PROMPT_MAX_TOKENS = 4000;

/**
 * The spec's `transcript_to_llm`: SYSTEM, LIVE CONTACT, HISTORICAL CONTEXT and TRANSCRIPT TURN
 * blocks under a token budget, from a caller's bundle or a fresh one. HTTP and CLI.
 */
@Injectable()
export class ContextPromptService {
  constructor(
    private readonly context: ContextService,
    private readonly prompt: PromptService,
    private readonly redaction: RedactionOffloadService,
  ) {}

  /**
   * `arrivedAt`: when the request arrived (see `ContextService.build`); default now.
   * `caller`: as the rate limiter counts it (a call_id's call is this caller's own).
   */
  async build(
    request: ContextPromptRequestDto,
    scope?: LocationScope,
    arrivedAt?: number,
    caller?: string,
  ): Promise<BuiltPrompt<HistoricalExcerpt>> {
    const bundle = request.bundle
      ? await this.callerBundle(request.bundle, request.location_uid, scope)
      : await this.context.build(request, scope, arrivedAt, caller);
    return this.prompt.buildPrompt({
      systemPrompt: request.system_prompt,
      contact: bundle.contact,
      excerpts: bundle.historical_excerpts,
      transcript: request.transcript,
      maxTokens: request.prompt_max_tokens ?? PROMPT_MAX_TOKENS,
    });
  }

  /**
   * A bundle the caller built: the same tenant rule as a fresh one (a bound key naming
   * another location is refused), and historical text like any other, so redacted here too:
   * on a worker when large (up to 100 excerpts of 20,000 characters), never on the loop.
   */
  private async callerBundle(
    bundle: NonNullable<ContextPromptRequestDto['bundle']>,
    location: string | undefined,
    scope: LocationScope,
  ) {
    scopedLocations(scope, location);
    return {
      contact: bundle.contact,
      historical_excerpts: (
        await this.redaction.redactBundle(bundle.historical_excerpts as HistoricalExcerpt[])
      ).excerpts,
    };
  }
}
