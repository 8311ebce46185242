import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { fakeDeltas, fakeModelReply, pause, SHORT_REPLY } from './anthropic-server';
import { hold, listenOnLoopback, readBody } from './loopback';

/** A scripted failure the next request(s) get before normal service resumes. */
export type ScriptedFailure =
  | { status: 429; retryAfterSeconds?: number }
  | { status: 500 | 503 }
  /** Serve this request normally (to fail a later one). */
  | { status: 200 };

export interface FakeOpenAi {
  /** Base URL to hand the SDK (ends in /v1, as api.openai.com's does). */
  baseURL: string;
  requests: Array<{ path: string; body: Record<string, unknown>; authorization?: string }>;
  failNext(...failures: ScriptedFailure[]): void;
  /** Every `POST /v1/chat/completions`, with whether the client hung up mid-answer. */
  chatRequests: OpenAiChatRecord[];
  /** What the next chat completion(s) get; unscripted ones stream the default reply. */
  scriptChat(...steps: OpenAiChatScript[]): void;
  /** Changes the token rate or default reply of later chat completions. */
  configureChat(options: Partial<FakeOpenAiChatOptions>): void;
  close(): Promise<void>;
}

/** Chat Completions scripts, mirroring the Anthropic fake's. */
export type OpenAiChatScript =
  | { kind: 'reply'; text: string }
  | { kind: 'short' }
  | { kind: 'http_error'; status: 400 | 401 | 429 | 500 | 503 }
  /** Stream `afterDeltas` content chunks, then a `data: {"error": ...}` chunk. */
  | { kind: 'error_mid_stream'; afterDeltas: number }
  /** Go silent until the client leaves: before the headers, or after that many chunks. */
  | { kind: 'hang'; afterDeltas?: number };

export interface OpenAiChatRecord {
  body: Record<string, unknown>;
  authorization?: string;
  receivedAt: number;
  deltasSent: number;
  completed: boolean;
  disconnected: boolean;
  settled: Promise<void>;
}

export interface FakeOpenAiChatOptions {
  /** Delay before each content chunk. Default 5 ms. */
  deltaDelayMs: number;
  /** The unscripted reply; default the shared fake model's. */
  reply: (body: Record<string, unknown>) => string;
}

/** Deterministic unit vector for a text: the same text always embeds identically. */
export function fakeEmbedding(text: string, dimension: number): number[] {
  const out: number[] = [];
  let block = createHash('sha256').update(text).digest();
  while (out.length < dimension) {
    for (let i = 0; i + 1 < block.length && out.length < dimension; i += 2) {
      out.push(block.readInt16LE(i) / 32768);
    }
    block = createHash('sha256').update(block).digest();
  }
  const norm = Math.hypot(...out);
  return out.map((x) => x / norm);
}

function errorBody(status: number): Record<string, unknown> {
  const [type, code, message] =
    status === 429
      ? ['requests', 'rate_limit_exceeded', 'Rate limit reached for requests']
      : ['server_error', null, 'The server had an error while processing your request.'];
  return { error: { message, type, param: null, code } };
}

/** Chat errors: the embeddings ones plus 400 and 401 (for `scriptChat`). */
function chatErrorBody(status: number): Record<string, unknown> {
  if (status === 400) {
    return {
      error: {
        message: "Invalid value for 'messages': must not be empty.",
        type: 'invalid_request_error',
        param: 'messages',
        code: null,
      },
    };
  }
  if (status === 401) {
    return {
      error: {
        message: 'Incorrect API key provided.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      },
    };
  }
  return errorBody(status);
}

/**
 * A loopback server that speaks OpenAI's embeddings wire format: `POST /v1/embeddings` with
 * `input` as a string or array, `encoding_format` float or base64 (the SDK's default), the
 * `dimensions` parameter, usage accounting, and OpenAI's error bodies for 401/429/5xx.
 *
 * Also Chat Completions streaming (`POST /v1/chat/completions` with `stream: true`):
 * `chat.completion.chunk` objects as `data:` lines (a first chunk with the role, one per
 * token with `delta.content`, a last one with `finish_reason`, then `data: [DONE]`), a
 * `data: {"error": ...}` line for a failure after the 200, and the same JSON error bodies.
 */
export async function startFakeOpenAi(
  options: {
    dimension?: number;
    apiKey?: string;
    /** How a text embeds; default {@link fakeEmbedding} (hash noise, no structure). */
    embed?: (text: string, dimension: number) => number[];
    /** Latency of each embeddings answer, asked per request with its texts; default none. */
    embedDelayMs?: (texts: readonly string[]) => number;
  } = {},
): Promise<FakeOpenAi> {
  const embed = options.embed ?? fakeEmbedding;
  const nativeDimension = options.dimension ?? 1536;
  const failures: ScriptedFailure[] = [];
  const requests: FakeOpenAi['requests'] = [];
  const chat = startChatCompletions(options.apiKey);

  const send = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': `req_${requests.length}`,
      ...headers,
    });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST' && req.url === '/v1/chat/completions') {
      return chat.handle(req, res);
    }
    const raw = await readBody(req);
    const body = JSON.parse(raw || '{}') as Record<string, unknown>;
    requests.push({ path: req.url ?? '', body, authorization: req.headers.authorization });
    if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
      return send(res, 404, {
        error: {
          message: `Unknown request URL: ${req.method} ${req.url}`,
          type: 'invalid_request_error',
          param: null,
          code: 'unknown_url',
        },
      });
    }
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(res, 401, {
        error: {
          message: 'Incorrect API key provided.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    }
    const failure = failures.shift();
    if (failure && failure.status !== 200) {
      const headers: Record<string, string> =
        failure.status === 429 ? { 'retry-after': String(failure.retryAfterSeconds ?? 0) } : {};
      return send(res, failure.status, errorBody(failure.status), headers);
    }
    const input = body.input;
    const texts = typeof input === 'string' ? [input] : (input as string[]);
    const delayMs = Array.isArray(texts) ? (options.embedDelayMs?.(texts) ?? 0) : 0;
    if (delayMs > 0) {
      await hold(res, delayMs);
    }
    if (
      !Array.isArray(texts) ||
      texts.length === 0 ||
      texts.some((t) => typeof t !== 'string' || t.length === 0)
    ) {
      return send(res, 400, {
        error: {
          message: "'$.input' is invalid.",
          type: 'invalid_request_error',
          param: null,
          code: null,
        },
      });
    }
    const dimension = typeof body.dimensions === 'number' ? body.dimensions : nativeDimension;
    const data = texts.map((text, index) => {
      const vector = embed(text, dimension);
      const embedding =
        body.encoding_format === 'base64'
          ? Buffer.from(new Float32Array(vector).buffer).toString('base64')
          : vector;
      return { object: 'embedding', index, embedding };
    });
    const tokens = texts.reduce((n, t) => n + t.split(/\s+/).length, 0);
    send(res, 200, {
      object: 'list',
      data,
      model: body.model,
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => send(res, 500, { error: { message: error.message } }));
  });
  const url = await listenOnLoopback(server);
  return {
    baseURL: `${url}/v1`,
    requests,
    failNext: (...f) => failures.push(...f),
    chatRequests: chat.records,
    scriptChat: (...steps) => chat.steps.push(...steps),
    configureChat: (o) => Object.assign(chat.options, o),
    close: () =>
      new Promise((resolve) => {
        // A hung chat stream would otherwise keep close() waiting for its connection.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The Chat Completions half of the fake: its state and request handler. */
function startChatCompletions(apiKey: string | undefined) {
  const steps: OpenAiChatScript[] = [];
  const records: OpenAiChatRecord[] = [];
  const options: FakeOpenAiChatOptions = { deltaDelayMs: 5, reply: fakeModelReply };

  const sendJson = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_chat' });
    res.end(JSON.stringify(body));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw || '{}') as Record<string, unknown>;
    } catch {
      return sendJson(res, 400, chatErrorBody(400));
    }
    let settle!: () => void;
    const record: OpenAiChatRecord = {
      body,
      authorization: req.headers.authorization,
      receivedAt: performance.now(),
      deltasSent: 0,
      completed: false,
      disconnected: false,
      settled: new Promise<void>((resolve) => (settle = resolve)),
    };
    records.push(record);
    res.once('close', () => {
      record.completed = res.writableFinished;
      record.disconnected = !res.writableFinished;
      settle();
    });
    if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`) {
      return sendJson(res, 401, chatErrorBody(401));
    }
    const messages = body.messages;
    if (typeof body.model !== 'string' || !Array.isArray(messages) || messages.length === 0) {
      return sendJson(res, 400, chatErrorBody(400));
    }
    if (body.stream !== true) {
      // Only streaming is modelled; say so rather than fake a completion object.
      return sendJson(res, 400, {
        error: {
          message: 'this test server only implements stream: true',
          type: 'invalid_request_error',
          param: 'stream',
          code: null,
        },
      });
    }
    const step = steps.shift();
    if (step?.kind === 'http_error') {
      return sendJson(res, step.status, chatErrorBody(step.status));
    }
    if (step?.kind === 'hang' && step.afterDeltas === undefined) {
      return hold(res, 10 * 60_000);
    }
    const text =
      step?.kind === 'reply'
        ? step.text
        : step?.kind === 'short'
          ? SHORT_REPLY
          : options.reply(body);
    const cut =
      step?.kind === 'error_mid_stream' || step?.kind === 'hang' ? step.afterDeltas : undefined;
    const deltas = fakeDeltas(text).slice(0, cut);
    const limit = Number(body.max_completion_tokens ?? body.max_tokens ?? Infinity);
    const id = `chatcmpl-${createHash('sha256').update(raw).digest('hex').slice(0, 24)}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (delta: Record<string, unknown>, finish: string | null) => ({
      id,
      object: 'chat.completion.chunk',
      created,
      model: body.model,
      system_fingerprint: 'fp_fake',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });

    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-request-id': 'req_chat',
    });
    const open = () => !res.destroyed && !res.writableEnded;
    const data = (payload: unknown) => {
      if (open()) {
        res.write(`data: ${typeof payload === 'string' ? payload : JSON.stringify(payload)}\n\n`);
      }
    };
    data(chunk({ role: 'assistant', content: '', refusal: null }, null));
    let finish = 'stop';
    for (const [i, delta] of deltas.entries()) {
      if (i >= limit) {
        finish = 'length';
        break;
      }
      await pause(res, options.deltaDelayMs);
      if (!open()) {
        return;
      }
      data(chunk({ content: delta }, null));
      record.deltasSent++;
    }
    if (step?.kind === 'hang') {
      return hold(res, 10 * 60_000);
    }
    if (step?.kind === 'error_mid_stream') {
      data({
        error: {
          message: 'The server had an error while processing your request.',
          type: 'server_error',
          param: null,
          code: null,
        },
      });
      return res.end();
    }
    data(chunk({}, finish));
    data('[DONE]');
    res.end();
  };

  return { steps, records, options, handle };
}
