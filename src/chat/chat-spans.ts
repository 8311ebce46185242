import { tracer } from '@app/common';
import { type GenerationRequest } from '@app/llm';
import { type TokenCounter } from '@app/prompt';
import { type Attributes, context, type Span, SpanStatusCode, trace } from '@opentelemetry/api';

import { type KbRetrieval } from './kb-retrieval.service';

/*
 * The spans of `POST /chat`: retrieval, then generation with its time to first token and its
 * token counts. Counts, scores and flags only: never the question, a passage or the answer.
 */

export function retrievalAttributes(kb: KbRetrieval): Attributes {
  return {
    'chat.hits': kb.merged.length,
    'chat.source_chunks': kb.sourceChunks.length,
    'chat.topic_summaries': kb.topicSummaries.length,
    'chat.citations': kb.citations.length,
    'chat.threshold': kb.threshold,
    'chat.theme_boosted': kb.currentThemeId !== null,
    'chat.out_of_scope': kb.merged.length === 0,
    ...(kb.merged.length > 0 ? { 'chat.top_score': kb.merged[0].score } : {}),
  };
}

/** How a generation ended, as the span's `chat.outcome`. */
export type GenerationOutcome = 'answered' | 'out_of_scope' | 'failed' | 'aborted';

/**
 * The `chat.generation` span of one streamed answer and, inside it, `chat.first_token`,
 * which ends at the first delta from the model. Token counts are taken only while the span
 * records (counting costs a tokenizer pass).
 */
export class GenerationSpan {
  private readonly span: Span;
  private firstToken?: Span;
  private readonly started = performance.now();
  private output = '';
  private outcome: GenerationOutcome = 'aborted';
  private errorType?: string;
  private ended = false;

  constructor(
    private readonly tokens: TokenCounter,
    request: GenerationRequest,
  ) {
    this.span = tracer().startSpan('chat.generation');
    if (this.span.isRecording()) {
      const prompt = [request.system, ...request.messages.map((m) => m.content)].join('\n');
      this.span.setAttributes({
        'chat.prompt_tokens': this.tokens.count(prompt),
        'chat.passages': request.passages.length,
        'chat.history_turns': request.messages.length - 1,
      });
      this.firstToken = tracer().startSpan(
        'chat.first_token',
        {},
        trace.setSpan(context.active(), this.span),
      );
    }
  }

  /** One delta from the model. */
  delta(text: string): void {
    if (this.firstToken) {
      this.span.setAttribute('chat.ttft_ms', Math.round(performance.now() - this.started));
      this.firstToken.end();
      this.firstToken = undefined;
    }
    if (this.span.isRecording()) {
      this.output += text;
    }
  }

  /** How the generation ended; unsettled at `end()`, it was aborted (the client left). */
  settle(outcome: GenerationOutcome, errorType?: string): void {
    this.outcome = outcome;
    this.errorType = errorType;
  }

  /** Ends both spans once; later calls do nothing. */
  end(): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    this.firstToken?.end();
    if (this.span.isRecording()) {
      this.span.setAttributes({
        'chat.outcome': this.outcome,
        'chat.completion_tokens': this.tokens.count(this.output),
        ...(this.errorType ? { 'error.type': this.errorType } : {}),
      });
      if (this.outcome === 'failed') {
        this.span.setStatus({ code: SpanStatusCode.ERROR, message: this.errorType });
      }
    }
    this.span.end();
  }
}
