import { DependencyError } from '@app/common';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  OpenAI,
} from 'openai';

import {
  type GenerationRequest,
  type LlmInfo,
  type LlmProvider,
} from '../interfaces/llm-provider.interface';
import { DEFAULT_LLM_OPTIONS } from '../llm.module-definition';
import { describeVendorFailure, vendorTextStream } from '../vendor-text';

export interface OpenAiLlmOptions {
  apiKey: string;
  /** Overrides `https://api.openai.com/v1`; from `OPENAI_BASE_URL`. */
  baseURL?: string;
  /** Defaults to `gpt-4o-mini`. */
  model?: string;
  /** `max_completion_tokens`; defaults to 1000, as for Anthropic. */
  maxTokens?: number;
  /** The SDK's own per-request timeout (to the response headers); `LlmService` adds the deadline. */
  timeoutMs?: number;
  /** SDK retries before the first byte. */
  maxRetries?: number;
}

export const DEFAULT_OPENAI_MODEL = 'gpt-4o-mini';

/**
 * The same port on the official `openai` SDK: Chat Completions with `stream: true`, the R42
 * system prompt as the first `system` message, and each chunk's `delta.content` yielded as
 * it arrives. `max_completion_tokens` is sent (OpenAI deprecated `max_tokens` for it, and
 * reasoning models reject the old name).
 */
export class OpenAiLlmProvider implements LlmProvider {
  readonly info: LlmInfo;
  private readonly client: OpenAI;
  private readonly maxTokens: number;

  constructor(private readonly options: OpenAiLlmOptions) {
    this.info = { provider: 'openai', model: options.model ?? DEFAULT_OPENAI_MODEL };
    this.maxTokens = options.maxTokens ?? DEFAULT_LLM_OPTIONS.maxTokens;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      // Explicit values: left undefined, the SDK reads OPENAI_* variables itself.
      baseURL: options.baseURL ?? 'https://api.openai.com/v1',
      organization: null,
      project: null,
      maxRetries: options.maxRetries ?? DEFAULT_LLM_OPTIONS.maxRetries,
      timeout: options.timeoutMs ?? DEFAULT_LLM_OPTIONS.timeoutMs,
      logLevel: 'off',
    });
  }

  stream(request: GenerationRequest, signal: AbortSignal): AsyncGenerator<string> {
    return vendorTextStream(
      () =>
        this.client.chat.completions.create(
          {
            model: this.info.model,
            max_completion_tokens: this.maxTokens,
            messages: [
              { role: 'system', content: request.system },
              ...request.messages.map((m) => ({ role: m.role, content: m.content })),
            ],
            stream: true,
          },
          { signal },
        ),
      (chunk) => chunk.choices[0]?.delta?.content,
      (error) => this.failure(error, signal),
      signal,
    );
  }

  private failure(error: unknown, signal: AbortSignal): DependencyError {
    return new DependencyError('llm_failed', `OpenAI ${this.describe(error, signal)}.`);
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
      // No status means the stream had started and a `data: {"error": …}` chunk arrived.
      (e) => {
        const body = e.error as { message?: unknown } | undefined;
        return {
          type: e.type ?? e.code ?? 'error',
          message: typeof body?.message === 'string' ? body.message : undefined,
        };
      },
      [this.options.apiKey],
    );
  }
}
