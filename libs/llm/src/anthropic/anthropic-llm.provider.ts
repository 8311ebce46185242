import {
  Anthropic,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from '@anthropic-ai/sdk';
import { DependencyError } from '@app/common';

import {
  type GenerationRequest,
  type LlmInfo,
  type LlmProvider,
} from '../interfaces/llm-provider.interface';
import { DEFAULT_LLM_OPTIONS } from '../llm.module-definition';
import { describeVendorFailure, vendorTextStream } from '../vendor-text';

export interface AnthropicLlmOptions {
  apiKey: string;
  /** Overrides `https://api.anthropic.com`; from `ANTHROPIC_BASE_URL`. */
  baseURL?: string;
  /** Defaults to `claude-haiku-4-5-20251001`, the R42 spec's model. */
  model?: string;
  /** `max_tokens`; defaults to the spec's 1000. */
  maxTokens?: number;
  /** The SDK's own per-request timeout (to the response headers); `LlmService` adds the deadline. */
  timeoutMs?: number;
  /** SDK retries before the first byte; the caller's signal cuts the backoff short. */
  maxRetries?: number;
}

export const DEFAULT_ANTHROPIC_MODEL = 'claude-haiku-4-5-20251001';

/**
 * Claude through the official `@anthropic-ai/sdk`, streaming the Messages API
 * (`messages.create({ stream: true })`): the R42 system prompt as `system`, the turns as
 * `messages`, and every `content_block_delta` `text_delta` yielded as it arrives. The raw
 * event stream is used rather than `messages.stream()` because nothing here needs the
 * accumulated message, and an `event: error` then surfaces as the SDK's `APIError` in the
 * same loop.
 */
export class AnthropicLlmProvider implements LlmProvider {
  readonly info: LlmInfo;
  private readonly client: Anthropic;
  private readonly maxTokens: number;

  constructor(private readonly options: AnthropicLlmOptions) {
    this.info = { provider: 'anthropic', model: options.model ?? DEFAULT_ANTHROPIC_MODEL };
    this.maxTokens = options.maxTokens ?? DEFAULT_LLM_OPTIONS.maxTokens;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      // Explicit values everywhere: left undefined, the SDK reads ANTHROPIC_* variables and
      // credential profiles itself, and config is read in one place only.
      authToken: null,
      baseURL: options.baseURL ?? 'https://api.anthropic.com',
      maxRetries: options.maxRetries ?? DEFAULT_LLM_OPTIONS.maxRetries,
      timeout: options.timeoutMs ?? DEFAULT_LLM_OPTIONS.timeoutMs,
      logLevel: 'off',
    });
  }

  stream(request: GenerationRequest, signal: AbortSignal): AsyncGenerator<string> {
    return vendorTextStream(
      () =>
        this.client.messages.create(
          {
            model: this.info.model,
            max_tokens: this.maxTokens,
            system: request.system,
            messages: request.messages.map((m) => ({ role: m.role, content: m.content })),
            stream: true,
          },
          { signal },
        ),
      (event) =>
        event.type === 'content_block_delta' && event.delta.type === 'text_delta'
          ? event.delta.text
          : undefined,
      (error) => this.failure(error, signal),
      signal,
    );
  }

  /** Maps anything the SDK throws to `llm_failed` with a reason that is safe to show. */
  private failure(error: unknown, signal: AbortSignal): DependencyError {
    return new DependencyError('llm_failed', `Anthropic ${this.describe(error, signal)}.`);
  }

  private describe(error: unknown, signal: AbortSignal): string {
    return describeVendorFailure(
      error,
      signal,
      {
        userAbort: APIUserAbortError,
        connectionTimeout: APIConnectionTimeoutError,
        connection: APIConnectionError,
        api: APIError,
      },
      // No status means the stream had started and the API sent an `event: error` frame.
      (e) => ({ type: e.type ?? 'error', message: e.apiMessage }),
      [this.options.apiKey],
    );
  }
}
