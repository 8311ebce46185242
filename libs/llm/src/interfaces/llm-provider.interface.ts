/** One prior turn of the employee's conversation, passed through from the client. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** Everything a provider needs to answer one question from retrieved context. */
export interface GenerationRequest {
  /** The R42 system prompt (sent as Anthropic's `system`, or OpenAI's first `system` turn). */
  system: string;
  /** Client history (oldest first) followed by the user prompt as the last `user` turn. */
  messages: ChatTurn[];
  /** The retrieved passages, best first; the extractive provider reads only these. */
  passages: string[];
  /** The employee's question, verbatim. */
  question: string;
}

/** The answer generators `LLM_PROVIDER` accepts. */
export const LLM_PROVIDERS = ['extractive', 'anthropic', 'openai'] as const;
export type LlmProviderName = (typeof LLM_PROVIDERS)[number];

export interface LlmInfo {
  provider: LlmProviderName;
  model: string;
}

/** The port every answer generator implements. */
export interface LlmProvider {
  readonly info: LlmInfo;
  /**
   * Streams text deltas as they are generated (never empty strings). Aborting `signal`
   * cancels the upstream request, so no tokens are paid for after the client leaves; the
   * iterable then rejects. Ending the iteration early (`break`) cancels it too. Failures,
   * including a vendor error after some text was already yielded, reject with
   * `DependencyError('llm_failed')` and a message that is safe to show (no keys, no
   * prompt text).
   *
   * Providers do not enforce the deadline or the answer length themselves: inject
   * `LlmService`, which wraps the configured provider and keeps both limits.
   */
  stream(request: GenerationRequest, signal: AbortSignal): AsyncIterable<string>;
}

/** Injection token of the raw, configured provider (tests override it with a double). */
export const LLM_PROVIDER = 'LLM_PROVIDER';
