import { createHash } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';

import { listenOnLoopback, readBody } from './loopback';

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
  close(): Promise<void>;
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

/**
 * A loopback server that speaks OpenAI's embeddings wire format: `POST /v1/embeddings` with
 * `input` as a string or array, `encoding_format` float or base64 (the SDK's default), the
 * `dimensions` parameter, usage accounting, and OpenAI's error bodies for 401/429/5xx.
 */
export async function startFakeOpenAi(
  options: { dimension?: number; apiKey?: string } = {},
): Promise<FakeOpenAi> {
  const nativeDimension = options.dimension ?? 1536;
  const failures: ScriptedFailure[] = [];
  const requests: FakeOpenAi['requests'] = [];

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
      const vector = fakeEmbedding(text, dimension);
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
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
