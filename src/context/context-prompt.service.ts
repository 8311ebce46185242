import { type BuiltPrompt, PromptService } from '@app/prompt';
import { RedactionService } from '@app/redaction';
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
    private readonly redaction: RedactionService,
  ) {}

  async build(
    request: ContextPromptRequestDto,
    scope?: LocationScope,
  ): Promise<BuiltPrompt<HistoricalExcerpt>> {
    // A bound key naming another location is refused on both paths, bundle or not.
    scopedLocations(scope, request.location_uid);
    // A caller-supplied bundle is historical text like any other: it is redacted here too.
    const bundle = request.bundle
      ? {
          contact: request.bundle.contact,
          historical_excerpts: this.redaction.redactBundle(
            request.bundle.historical_excerpts as HistoricalExcerpt[],
          ).excerpts,
        }
      : await this.context.build(request, scope);
    return this.prompt.buildPrompt({
      systemPrompt: request.system_prompt,
      contact: bundle.contact,
      excerpts: bundle.historical_excerpts,
      transcript: request.transcript,
      maxTokens: request.prompt_max_tokens ?? PROMPT_MAX_TOKENS,
    });
  }
}
