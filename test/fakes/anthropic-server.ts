import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { hold, listenOnLoopback, readBody } from './loopback';

/** The statuses Anthropic documents for the Messages API, with their `error.type`. */
const ERROR_TYPES = {
  400: ['invalid_request_error', 'messages: at least one message is required'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'Your credit balance is too low to access the Anthropic API.'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'model: not found'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timed out'],
  529: ['overloaded_error', 'Overloaded'],
} as const;

export type AnthropicErrorStatus = keyof typeof ERROR_TYPES;

/**
 * Waits `ms`, or less if the client hangs up first. Unlike `hold`, it removes its listener
 * when the timer wins, so a stream of many deltas does not pile listeners on the response.
 */
export function pause(res: ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once('close', done);
  });
}

/** A reply too short to be an answer (the R42 chat's under-20-tokens rule). */
export const SHORT_REPLY = "I don't know.";

/** What the next request(s) get; unscripted requests get the default reply. */
export type AnthropicScript =
  /** Stream exactly this text. */
  | { kind: 'reply'; text: string }
  /** Stream {@link SHORT_REPLY}. */
  | { kind: 'short' }
  /** Answer with this status and Anthropic's JSON error body instead of a stream. */
  | { kind: 'http_error'; status: AnthropicErrorStatus; retryAfterSeconds?: number }
  /** Stream `afterDeltas` text deltas, then an `event: error` (default `overloaded_error`). */
  | { kind: 'error_mid_stream'; afterDeltas: number; errorType?: 'overloaded_error' | 'api_error' }
  /**
   * Go silent and keep the connection open until the client leaves: before the response
   * headers when `afterDeltas` is unset, else after that many deltas.
   */
  | { kind: 'hang'; afterDeltas?: number };

/** One `POST /v1/messages` as the fake saw it. */
export interface AnthropicRequestRecord {
  method: string;
  path: string;
  headers: {
    xApiKey?: string;
    authorization?: string;
    anthropicVersion?: string;
    retryCount?: string;
  };
  body: Record<string, unknown>;
  /** `performance.now()` when the request arrived. */
  receivedAt: number;
  /** Text deltas written so far. */
  deltasSent: number;
  /** The response was written to its end (a full stream, an error event or an error body). */
  completed: boolean;
  /** The client went away before the response was complete. */
  disconnected: boolean;
  /** `performance.now()` when the connection closed, either way. */
  closedAt?: number;
  /** Resolves once the exchange is over, completed or disconnected. */
  settled: Promise<void>;
}

export interface FakeAnthropicOptions {
  /** When set, requests must carry it as `x-api-key` or `Authorization: Bearer` (else 401). */
  apiKey?: string;
  /** Delay before each text delta: the fake model's token rate. Default 5 ms. */
  deltaDelayMs?: number;
  /** The unscripted reply; default {@link fakeModelReply}. */
  reply?: (body: Record<string, unknown>) => string;
}

export interface FakeAnthropic {
  /** Base URL to hand the SDK (`baseURL`); the SDK appends `/v1/messages`. */
  baseURL: string;
  requests: AnthropicRequestRecord[];
  script(...steps: AnthropicScript[]): void;
  /** Changes the token rate or default reply of later requests. */
  configure(options: Partial<FakeAnthropicOptions>): void;
  close(): Promise<void>;
}

const CONTEXT_OPEN = 'Context from knowledge base:\n---\n';
const CONTEXT_CLOSE = '\n---\n\nQuestion:';

/** Text of the last `user` turn, whether its content is a string or text blocks. */
function lastUserText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as unknown[]) : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown };
    if (m.role !== 'user') {
      continue;
    }
    if (typeof m.content === 'string') {
      return m.content;
    }
    if (Array.isArray(m.content)) {
      return (m.content as Array<{ type?: unknown; text?: unknown }>)
        .map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : ''))
        .join('');
    }
  }
  return '';
}

/**
 * The fake model (shared with the OpenAI fake): a grounded answer built from the first passage of the R42 user prompt's
 * context block (its first 40 words), or a fixed 25-word sentence without a context block.
 * Deterministic, so tests can compute what a request should stream.
 */
export function fakeModelReply(body: Record<string, unknown>): string {
  const prompt = lastUserText(body);
  const open = prompt.indexOf(CONTEXT_OPEN);
  const close = prompt.indexOf(CONTEXT_CLOSE);
  if (open >= 0 && close > open) {
    const first = prompt.slice(open + CONTEXT_OPEN.length, close).split('\n\n---\n\n')[0];
    const words = first.split(/\s+/).filter(Boolean).slice(0, 40);
    if (words.length > 0) {
      return `According to the knowledge base: ${words.join(' ')}`;
    }
  }
  return 'This is the fake Claude model answering without any context block, with enough words to count as a real answer of more than twenty tokens.';
}

/** Token-sized pieces the way Claude streams them: each word with its leading space. */
export function fakeDeltas(text: string): string[] {
  return text.match(/\s*\S+\s*$|\s*\S+/g) ?? [];
}

const countWords = (value: unknown): number =>
  JSON.stringify(value ?? '')
    .split(/\s+/)
    .filter(Boolean).length;

/**
 * A loopback server that speaks the Anthropic Messages API wire format for
 * `POST /v1/messages`: the key as `x-api-key` (the documented header) or `Authorization:
 * Bearer` (what `@anthropic-ai/sdk` 1.x sends), a required `anthropic-version` header, and
 * with `stream: true` the real SSE sequence `message_start`, `content_block_start`, `ping`,
 * `content_block_delta` (`text_delta`) per token, `content_block_stop`, `message_delta`
 * (`stop_reason`, cumulative `usage`), `message_stop`. Errors use Anthropic's body
 * `{ type: 'error', error: { type, message }, request_id }` and a `request-id` header; a
 * mid-stream failure is an `event: error`. It records every request and whether the client
 * hung up before the end, to prove aborts.
 */
export async function startFakeAnthropic(
  initial: FakeAnthropicOptions = {},
): Promise<FakeAnthropic> {
  const options: FakeAnthropicOptions = { deltaDelayMs: 5, ...initial };
  const steps: AnthropicScript[] = [];
  const requests: AnthropicRequestRecord[] = [];

  const sendError = (
    res: ServerResponse,
    status: AnthropicErrorStatus,
    message?: string,
    headers: Record<string, string> = {},
  ) => {
    const [type, defaultMessage] = ERROR_TYPES[status];
    const requestId = `req_${randomUUID().replace(/-/g, '')}`;
    res.writeHead(status, {
      'content-type': 'application/json',
      'request-id': requestId,
      ...headers,
    });
    res.end(
      JSON.stringify({
        type: 'error',
        error: { type, message: message ?? defaultMessage },
        request_id: requestId,
      }),
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw || '{}') as Record<string, unknown>;
    } catch {
      return sendError(res, 400, 'There was an issue with the JSON body.');
    }
    let settle!: () => void;
    const record: AnthropicRequestRecord = {
      method: req.method ?? '',
      path: req.url ?? '',
      headers: {
        xApiKey: req.headers['x-api-key'] as string | undefined,
        authorization: req.headers.authorization,
        anthropicVersion: req.headers['anthropic-version'] as string | undefined,
        retryCount: req.headers['x-stainless-retry-count'] as string | undefined,
      },
      body,
      receivedAt: performance.now(),
      deltasSent: 0,
      completed: false,
      disconnected: false,
      settled: new Promise<void>((resolve) => (settle = resolve)),
    };
    requests.push(record);
    res.once('close', () => {
      record.closedAt = performance.now();
      record.completed = res.writableFinished;
      record.disconnected = !res.writableFinished;
      settle();
    });

    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') {
      return sendError(res, 404, `Not found: ${req.method} ${req.url}`);
    }
    const key = record.headers.xApiKey ?? record.headers.authorization?.replace(/^Bearer /, '');
    if (initial.apiKey !== undefined && key !== initial.apiKey) {
      return sendError(res, 401);
    }
    if (!record.headers.anthropicVersion) {
      return sendError(res, 400, 'anthropic-version: header is required');
    }
    const messages = body.messages;
    if (typeof body.model !== 'string' || !body.model) {
      return sendError(res, 400, 'model: Field required');
    }
    if (!Number.isInteger(body.max_tokens) || (body.max_tokens as number) < 1) {
      return sendError(res, 400, 'max_tokens: Field required');
    }
    if (!Array.isArray(messages) || messages.length === 0) {
      return sendError(res, 400);
    }
    if (body.stream !== true) {
      // Only the streaming half of the API is modelled; say so rather than fake a Message.
      return sendError(res, 400, 'this test server only implements stream: true');
    }

    const step = steps.shift();
    if (step?.kind === 'http_error') {
      const headers: Record<string, string> =
        step.retryAfterSeconds !== undefined
          ? { 'retry-after': String(step.retryAfterSeconds) }
          : {};
      return sendError(res, step.status, undefined, headers);
    }
    if (step?.kind === 'hang' && step.afterDeltas === undefined) {
      return hold(res, 10 * 60_000);
    }
    const text =
      step?.kind === 'reply'
        ? step.text
        : step?.kind === 'short'
          ? SHORT_REPLY
          : (options.reply ?? fakeModelReply)(body);
    let deltas = fakeDeltas(text);
    const cutAt =
      step?.kind === 'error_mid_stream' || step?.kind === 'hang' ? step.afterDeltas : undefined;
    if (cutAt !== undefined) {
      deltas = deltas.slice(0, cutAt);
    }
    const messageId = `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const inputTokens = countWords(body.system) + countWords(messages);
    const maxTokens = body.max_tokens as number;

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': `req_${messageId.slice(4)}`,
    });
    const open = () => !res.destroyed && !res.writableEnded;
    const emit = (event: string, data: Record<string, unknown>) => {
      if (open()) {
        res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
      }
    };

    emit('message_start', {
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        content: [],
        model: body.model,
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: inputTokens, output_tokens: 1 },
      },
    });
    emit('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    emit('ping', {});
    let stopReason = 'end_turn';
    for (const [i, delta] of deltas.entries()) {
      if (i >= maxTokens) {
        stopReason = 'max_tokens';
        break;
      }
      await pause(res, options.deltaDelayMs ?? 0);
      if (!open()) {
        return;
      }
      emit('content_block_delta', { index: 0, delta: { type: 'text_delta', text: delta } });
      record.deltasSent++;
    }
    if (step?.kind === 'hang') {
      return hold(res, 10 * 60_000);
    }
    if (step?.kind === 'error_mid_stream') {
      const type = step.errorType ?? 'overloaded_error';
      // The SSE frame Anthropic sends when a stream fails after the 200 went out.
      res.end(
        `event: error\ndata: ${JSON.stringify({
          type: 'error',
          error: {
            type,
            message: type === 'overloaded_error' ? 'Overloaded' : 'Internal server error',
          },
        })}\n\n`,
      );
      return;
    }
    emit('content_block_stop', { index: 0 });
    emit('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: record.deltasSent },
    });
    emit('message_stop', {});
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => {
      if (!res.headersSent) {
        sendError(res, 500, error.message);
      } else {
        res.destroy();
      }
    });
  });
  const url = await listenOnLoopback(server);
  return {
    baseURL: url,
    requests,
    script: (...s) => steps.push(...s),
    configure: (o) => Object.assign(options, o),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
