/** One prior turn of the employee's conversation, passed through from the client. */
export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** Everything a provider needs to answer one question from retrieved context. */
export interface GenerationRequest {
  /** The R42 system prompt. */
  system: string;
  /** Client history (oldest first) followed by the user prompt as the last `user` turn. */
  messages: ChatTurn[];
  /** The retrieved passages, best first; the extractive provider reads only these. */
  passages: string[];
  /** The employee's question, verbatim. */
  question: string;
}

export type LlmProviderName = 'extractive' | 'anthropic' | 'openai';

export interface LlmInfo {
  provider: LlmProviderName;
  model: string;
}

/** The port every answer generator implements. */
export interface LlmProvider {
  readonly info: LlmInfo;
  /**
   * Streams text deltas as they are generated. Aborting `signal` cancels the upstream
   * request, so no tokens are paid for after the client leaves. Failures reject with
   * `DependencyError('llm_failed')`.
   */
  stream(request: GenerationRequest, signal: AbortSignal): AsyncIterable<string>;
}

export const LLM_PROVIDER = 'LLM_PROVIDER';
