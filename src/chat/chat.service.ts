import { DomainError, inSpan, InvalidInputError } from '@app/common';
import { type GenerationRequest, LlmService } from '@app/llm';
import { TokenCounter } from '@app/prompt';
import { Inject, Injectable, Logger } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { type ChatRequestDto } from './chat.dto';
import { type ChatEvent, type Citation, OUT_OF_SCOPE_TEXT } from './chat-events';
import { conversation, systemPrompt, userPrompt } from './chat-prompt';
import { GenerationSpan, retrievalAttributes } from './chat-spans';
import { KbRetrievalService } from './kb-retrieval.service';

/** Shorter questions carry too little to retrieve on (`query_too_short`). */
export const MIN_QUERY_CHARS = 3;
/**
 * The spec's second out-of-scope rule: a reply under 20 tokens drew nothing from the
 * context. The first 20 tokens are held back so such a reply is never half-streamed.
 */
export const MIN_ANSWER_TOKENS = 20;

/** What the pre-stream phase decided; errors before this point are plain JSON. */
export type PreparedAnswer =
  | { kind: 'out_of_scope' }
  | { kind: 'generate'; request: GenerationRequest; citations: Citation[] };

/** Folds what models vary in the refusal: spacing, quotes, curly apostrophes, emphasis. */
const normalise = (text: string) =>
  text
    .replace(/[’‘]/g, "'")
    .replace(/[*_"“”]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
const OUT_OF_SCOPE_NORMALISED = normalise(OUT_OF_SCOPE_TEXT);

/** True while `text` could still be the model saying the spec's "not covered" sentence. */
function mayBeRefusal(text: string): boolean {
  return OUT_OF_SCOPE_NORMALISED.startsWith(normalise(text));
}

/**
 * R42 chat: retrieval and prompt building before the stream, then the model's reply as
 * typed events. The controller only adapts these events to SSE.
 */
@Injectable()
export class ChatService {
  private readonly logger = new Logger(ChatService.name);
  private readonly tokens = new TokenCounter();

  constructor(
    private readonly retrieval: KbRetrievalService,
    private readonly llm: LlmService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Throws `query_too_short`, `user_not_found` or `retrieval_failed`. */
  async prepare(body: ChatRequestDto, signal: AbortSignal): Promise<PreparedAnswer> {
    const query = body.query.trim();
    if (query.length < MIN_QUERY_CHARS) {
      throw new InvalidInputError(
        'query_too_short',
        `The query must have at least ${MIN_QUERY_CHARS} characters.`,
      );
    }
    const kb = await inSpan(
      'chat.retrieval',
      () => this.retrieval.retrieve(query, body.userId, signal),
      retrievalAttributes,
    );
    if (kb.merged.length === 0) {
      return { kind: 'out_of_scope' };
    }
    return {
      kind: 'generate',
      citations: kb.citations,
      request: {
        system: systemPrompt(this.config.chat.companyName),
        messages: conversation(body.history ?? [], userPrompt(kb.merged, query)),
        passages: kb.merged.map((hit) => hit.text),
        question: query,
      },
    };
  }

  /** Streams the answer. Stops silently once `signal` aborts (the client has gone). */
  async *answer(prepared: PreparedAnswer, signal: AbortSignal): AsyncGenerator<ChatEvent> {
    if (prepared.kind === 'out_of_scope') {
      yield* this.outOfScope();
      return;
    }
    const span = new GenerationSpan(this.tokens, prepared.request);
    try {
      yield* this.generate(prepared, signal, span);
    } finally {
      span.end(); // however the stream ended, the consumer stopping early included
    }
  }

  private async *generate(
    prepared: Extract<PreparedAnswer, { kind: 'generate' }>,
    signal: AbortSignal,
    span: GenerationSpan,
  ): AsyncGenerator<ChatEvent> {
    let held = '';
    let streaming = false;
    try {
      for await (const delta of this.llm.stream(prepared.request, signal)) {
        span.delta(delta);
        if (signal.aborted) {
          return;
        }
        if (streaming) {
          yield { type: 'chunk', text: delta };
          continue;
        }
        held += delta;
        if (this.tokens.count(held) >= MIN_ANSWER_TOKENS && !mayBeRefusal(held)) {
          streaming = true;
          yield { type: 'chunk', text: held };
        }
      }
    } catch (error) {
      if (signal.aborted) {
        return;
      }
      const known = error instanceof DomainError;
      span.settle('failed', known ? error.code : (error as Error).name);
      this.logger.warn(`answer generation failed: ${known ? error.code : (error as Error).name}`);
      yield {
        type: 'error',
        error: known ? error.code : 'llm_failed',
        message: known ? error.message : 'The answer could not be generated.',
      };
      yield { type: 'done' };
      return;
    }
    if (signal.aborted) {
      return;
    }
    span.settle(streaming ? 'answered' : 'out_of_scope');
    if (!streaming) {
      // Too short, or the model's own "not covered" reply: either way, no grounded answer.
      yield* this.outOfScope();
      return;
    }
    yield { type: 'citations', topics: prepared.citations };
    yield { type: 'done' };
  }

  private *outOfScope(): Generator<ChatEvent> {
    yield { type: 'out_of_scope', text: OUT_OF_SCOPE_TEXT };
    yield { type: 'done' };
  }
}
