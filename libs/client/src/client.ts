import { type BridgeApi, createBridgeApi } from './api';
import { CallStream, type CallStreamOptions } from './call-stream';
import { BridgeAbortedError, BridgeError, BridgeTimeoutError } from './errors';
import { type paths } from './generated/openapi';
import { sseData } from './sse';
import {
  type BuiltPrompt,
  type ChatEvent,
  type ChatRequest,
  type ContextBundle,
  type ContextRequest,
  type PromptRequest,
} from './types';

/** The JSON POST routes the deadline-bound methods call, typed from the contract. */
type JsonPost = '/context' | '/context/prompt';
type BodyOf<P extends JsonPost> = NonNullable<
  paths[P]['post']['requestBody']
>['content']['application/json'];
type AnswerOf<P extends JsonPost> =
  paths[P]['post']['responses'][200]['content']['application/json'];

export interface ContextBridgeClientOptions {
  /** e.g. `http://context-bridge:3004` */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; its location binding scopes every read. */
  apiKey?: string;
  /** Default client-side deadline of `fetchContext` and `prompt` (ms). */
  deadlineMs?: number;
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Give up (BridgeTimeoutError) after this many ms; overrides the client default. */
  deadlineMs?: number;
  signal?: AbortSignal;
}

export interface ChatOptions {
  signal?: AbortSignal;
  /** The employee's JWT when the server runs CHAT_AUTH=jwt. */
  token?: string;
  /** Deadline for the stream to start (headers); the stream itself runs until `done`. */
  deadlineMs?: number;
}

const DEFAULT_DEADLINE_MS = 1000;
/** Kept back from the client deadline for the network, so the server answers before it. */
const NETWORK_MARGIN_MS = 50;
const MIN_SERVER_TIMEOUT_MS = 50;

/**
 * The bridge's client. The hot-path calls (`fetchContext`, `prompt`, `chat`) have a deadline
 * and take an AbortSignal; every other route is on {@link api}, typed from the contract.
 * Failures are {@link BridgeError}s carrying the server's stable code.
 */
export class ContextBridgeClient {
  /** Every route of the OpenAPI document: `await unwrap(client.api.POST('/search', …))`. */
  readonly api: BridgeApi;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ContextBridgeClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
    this.api = createBridgeApi(options);
  }

  /** `POST /context`: the bundle for a final transcript chunk (interims: `api`). */
  fetchContext(request: ContextRequest, options: CallOptions = {}): Promise<ContextBundle> {
    return this.postJson('/context', this.withServerTimeout(request, options), options);
  }

  /**
   * `GET /calls/{call_id}/stream`: one WebSocket for the call's interim and final transcripts;
   * each final's bundle is usually held before the turn ends (see {@link CallStream}).
   */
  openCallStream(options: CallStreamOptions): Promise<CallStream> {
    return CallStream.open(this.baseUrl, this.options.apiKey, {
      deadlineMs: this.options.deadlineMs,
      ...options,
    });
  }

  /** `POST /context/prompt`: a ready-to-send system + user prompt. */
  prompt(request: PromptRequest, options: CallOptions = {}): Promise<BuiltPrompt> {
    return this.postJson('/context/prompt', this.withServerTimeout(request, options), options);
  }

  /** `POST /chat`: R42's answer as an async iterator of SSE events, ending after `done`. */
  async *chat(request: ChatRequest, options: ChatOptions = {}): AsyncGenerator<ChatEvent> {
    const deadlineMs = options.deadlineMs ?? this.options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const stop = new AbortController();
    const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
    const call = await this.send('/chat', request, deadlineMs, signal, {
      accept: 'text/event-stream',
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    });
    call.clear(); // the deadline covers the start of the stream, not a long answer
    try {
      if (!call.response.body) {
        throw new BridgeError('invalid_response', 'The chat answer has no body.');
      }
      for await (const data of sseData(call.response.body)) {
        const event = parse<ChatEvent>(data, call.response);
        yield event;
        if (event.type === 'done') {
          return;
        }
      }
    } catch (error) {
      throw options.signal?.aborted ? new BridgeAbortedError() : error;
    } finally {
      stop.abort(); // the consumer stopped early: the server stops generating too
    }
  }

  /** The server's deadline fits inside ours, so it answers (partially) before we give up. */
  private withServerTimeout<T extends { timeout_ms?: number }>(
    request: T,
    options: CallOptions,
  ): T {
    const deadlineMs = options.deadlineMs ?? this.options.deadlineMs;
    if (request.timeout_ms !== undefined || deadlineMs === undefined) {
      return request;
    }
    const timeout = Math.max(MIN_SERVER_TIMEOUT_MS, Math.min(5000, deadlineMs - NETWORK_MARGIN_MS));
    return { ...request, timeout_ms: timeout };
  }

  private async postJson<P extends JsonPost>(
    path: P,
    body: BodyOf<P>,
    options: CallOptions,
  ): Promise<AnswerOf<P>> {
    const deadlineMs = options.deadlineMs ?? this.options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const call = await this.send(path, body, deadlineMs, options.signal);
    try {
      return parse<AnswerOf<P>>(await call.response.text(), call.response);
    } catch (error) {
      throw call.failure(error);
    } finally {
      call.clear();
    }
  }

  /**
   * One POST under a deadline (headers and, until `clear()`, the body); a non-2xx answer
   * becomes a BridgeError with the server's code.
   */
  private async send(
    path: string,
    body: unknown,
    deadlineMs: number,
    signal?: AbortSignal,
    headers: Record<string, string> = {},
  ): Promise<{ response: Response; clear: () => void; failure: (error: unknown) => Error }> {
    const timer = new AbortController();
    const timeout = setTimeout(() => timer.abort(), deadlineMs);
    const clear = () => clearTimeout(timeout);
    const failure = (error: unknown): Error => {
      if (error instanceof BridgeError) {
        return error;
      }
      if (signal?.aborted) {
        return new BridgeAbortedError();
      }
      return timer.signal.aborted
        ? new BridgeTimeoutError(deadlineMs)
        : new BridgeError('network_error', (error as Error).message);
    };
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {}),
          ...headers,
        },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timer.signal]) : timer.signal,
      });
    } catch (error) {
      clear();
      throw failure(error);
    }
    if (!response.ok) {
      clear();
      const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
      throw new BridgeError(
        typeof answer.error === 'string' ? answer.error : `http_${response.status}`,
        typeof answer.message === 'string' ? answer.message : response.statusText,
        response.status,
        response.headers.get('x-request-id') ?? undefined,
      );
    }
    return { response, clear, failure };
  }
}

function parse<T>(text: string, response: Response): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new BridgeError(
      'invalid_response',
      'The bridge answered something that is not JSON.',
      response.status,
      response.headers.get('x-request-id') ?? undefined,
    );
  }
}
