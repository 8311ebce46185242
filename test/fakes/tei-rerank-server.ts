import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { hold, listenOnLoopback, readBody, words } from './loopback';

/** What the next request(s) get before normal service resumes. */
export type TeiScript =
  /** TEI's own error statuses: 503 unhealthy, 429 overloaded, 424 backend failure. */
  | { status: 503 | 429 | 424 }
  /** Answer normally, but only after this many ms (a cold or saturated GPU). */
  | { delayMs: number }
  /** Serve this request normally (to fail a later one). */
  | { status: 200 };

export interface FakeTeiRerank {
  /** Base URL of the server (TEI serves `/rerank` at the root). */
  url: string;
  /** Every request that reached the handler, with its parsed JSON body when it had one. */
  requests: Array<{ method: string; path: string; body: unknown }>;
  /** Requests whose client hung up before the response was written (aborts, timeouts). */
  readonly disconnects: number;
  script(...steps: TeiScript[]): void;
  close(): Promise<void>;
}

const ERROR_TYPES = { 503: 'Unhealthy', 429: 'Overloaded', 424: 'Backend' } as const;
const ERROR_MESSAGES = {
  503: 'Model is not healthy',
  429: 'Model is overloaded',
  424: 'Inference failed',
} as const;

/**
 * The fake model's logit for a pair: the share of the query's words (3+ letters) found in the
 * text, stretched to [-5, 5] as a cross-encoder's raw output would be. Deterministic, so
 * tests can predict the order.
 */
export function fakeRerankLogit(query: string, text: string): number {
  const q = words(query);
  if (q.size === 0) {
    return -5;
  }
  const t = words(text);
  let hits = 0;
  q.forEach((w) => (hits += t.has(w) ? 1 : 0));
  return (hits / q.size) * 10 - 5;
}

/** What TEI returns with `raw_scores: false`: the classifier's sigmoid of the logit. */
export function fakeRerankScore(query: string, text: string): number {
  return 1 / (1 + Math.exp(-fakeRerankLogit(query, text)));
}

/**
 * A loopback server that speaks HuggingFace text-embeddings-inference's `POST /rerank`:
 * - body `{ query, texts, raw_scores?, truncate?, return_text? }`;
 * - a response `[{ index, score, text? }]` sorted by score, highest first;
 * - axum's extractor rejections: 415 without a JSON content type, 400 for broken JSON, and 422
 *   as plain text for a body of the wrong shape;
 * - TEI's error body `{ error, error_type }`: 400 `Empty` for no texts, 413 `Validation` for
 *   more texts than `--max-client-batch-size` (32 by default), 503/429/424 when scripted.
 */
export async function startFakeTeiRerank(
  options: { maxClientBatchSize?: number } = {},
): Promise<FakeTeiRerank> {
  const maxBatch = options.maxClientBatchSize ?? 32;
  const steps: TeiScript[] = [];
  const requests: FakeTeiRerank['requests'] = [];
  let disconnects = 0;

  const json = (res: ServerResponse, status: number, body: unknown) => {
    if (res.destroyed) {
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const text = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const entry = { method: req.method ?? '', path: req.url ?? '', body: undefined as unknown };
    requests.push(entry);
    if (req.method !== 'POST' || req.url !== '/rerank') {
      return text(res, 404, '');
    }
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return text(res, 415, 'Expected request with `Content-Type: application/json`');
    }
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
      entry.body = body;
    } catch (error) {
      return text(
        res,
        400,
        `Failed to parse the request body as JSON: ${(error as Error).message}`,
      );
    }
    const shapeError =
      typeof body.query !== 'string'
        ? 'missing field `query` or invalid type, expected a string'
        : !Array.isArray(body.texts) || body.texts.some((t) => typeof t !== 'string')
          ? 'missing field `texts` or invalid type, expected a sequence of strings'
          : undefined;
    if (shapeError) {
      return text(
        res,
        422,
        `Failed to deserialize the JSON body into the target type: ${shapeError}`,
      );
    }
    const query = body.query as string;
    const texts = body.texts as string[];
    if (texts.length === 0) {
      return json(res, 400, { error: '`texts` cannot be empty', error_type: 'Empty' });
    }
    if (texts.length > maxBatch) {
      return json(res, 413, {
        error: `batch size ${texts.length} > maximum allowed batch size ${maxBatch}`,
        error_type: 'Validation',
      });
    }

    const step = steps.shift();
    if (step && 'delayMs' in step) {
      await hold(res, step.delayMs);
    } else if (step && step.status !== 200) {
      return json(res, step.status, {
        error: ERROR_MESSAGES[step.status],
        error_type: ERROR_TYPES[step.status],
      });
    }

    const ranks = texts
      .map((t, index) => {
        const score =
          body.raw_scores === true ? fakeRerankLogit(query, t) : fakeRerankScore(query, t);
        return body.return_text === true ? { index, text: t, score } : { index, score };
      })
      .sort((a, b) => b.score - a.score || a.index - b.index);
    json(res, 200, ranks);
  };

  const server = createServer((req, res) => {
    res.on('close', () => {
      if (!res.writableFinished) {
        disconnects++;
      }
    });
    handle(req, res).catch((error: Error) =>
      json(res, 500, { error: error.message, error_type: 'Backend' }),
    );
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    requests,
    get disconnects() {
      return disconnects;
    },
    script: (...s) => steps.push(...s),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
