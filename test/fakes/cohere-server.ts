import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { hold, listenOnLoopback, readBody, words } from './loopback';

/** What the next request(s) get before normal service resumes. */
export type CohereScript =
  | { status: 429 | 500 | 503 }
  /** Answer normally after this many ms. */
  | { delayMs: number }
  /** Serve this request normally (to fail a later one). */
  | { status: 200 };

export interface FakeCohere {
  /** Base URL to hand the SDK (`baseUrl`); the SDK appends `/v2/rerank`. */
  baseUrl: string;
  requests: Array<{
    method: string;
    path: string;
    body: Record<string, unknown>;
    authorization?: string;
  }>;
  script(...steps: CohereScript[]): void;
  close(): Promise<void>;
}

/** Models the fake accepts; anything else gets Cohere's 404. */
const MODELS = new Set([
  'rerank-v3.5',
  'rerank-v4.0-pro',
  'rerank-v4.0-fast',
  'rerank-english-v3.0',
  'rerank-multilingual-v3.0',
]);

const SCRIPTED_MESSAGES = {
  429: 'You are using a Trial key, which is limited to 10 API calls / minute. You can continue to use the Trial key for free or upgrade to a Production key with higher rate limits.',
  500: 'internal server error, this has been reported to our developers',
  503: 'service unavailable, please try again later',
} as const;

/**
 * The fake model's relevance: the share of the query's words (3+ letters) in the document.
 * Deterministic and already in [0, 1], like Cohere's normalised `relevance_score`.
 */
export function fakeCohereRelevance(query: string, document: string): number {
  const q = words(query);
  if (q.size === 0) {
    return 0;
  }
  const d = words(document);
  let hits = 0;
  q.forEach((w) => (hits += d.has(w) ? 1 : 0));
  return hits / q.size;
}

/**
 * A loopback server that speaks Cohere's v2 rerank wire format: `POST /v2/rerank` with
 * `{ model, query, documents: string[], top_n?, max_tokens_per_doc? }` and a bearer token;
 * the response `{ id, results: [{ index, relevance_score }], meta }` sorted by relevance and
 * cut to `top_n`; and Cohere's error body `{ message }` for 400, 401, 404, 429 and 5xx.
 */
export async function startFakeCohere(options: { apiKey?: string } = {}): Promise<FakeCohere> {
  const steps: CohereScript[] = [];
  const requests: FakeCohere['requests'] = [];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    if (res.destroyed) {
      return;
    }
    res.writeHead(status, { 'content-type': 'application/json', 'x-debug-trace-id': randomUUID() });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, message: string) =>
    send(res, status, { message });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(raw || '{}') as Record<string, unknown>;
    } catch {
      return fail(res, 400, 'invalid request: could not parse the request body as JSON');
    }
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      body,
      authorization: req.headers.authorization,
    });
    if (req.method !== 'POST' || req.url !== '/v2/rerank') {
      return fail(res, 404, `route ${req.method} ${req.url} not found`);
    }
    if (options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return fail(res, 401, 'invalid api token');
    }

    const { model, query, documents, top_n: topN } = body;
    if (typeof model !== 'string' || model.length === 0) {
      return fail(res, 400, 'invalid request: model must be specified');
    }
    if (!MODELS.has(model)) {
      return fail(
        res,
        404,
        `model '${model}' not found, make sure the correct model ID was used and that you have access to the model.`,
      );
    }
    if (typeof query !== 'string' || query.trim().length === 0) {
      return fail(res, 400, 'invalid request: query cannot be empty');
    }
    if (!Array.isArray(documents) || documents.length === 0) {
      return fail(res, 400, 'invalid request: list of documents must not be empty');
    }
    if (documents.some((d) => typeof d !== 'string')) {
      return fail(res, 400, 'invalid request: documents must be a list of strings');
    }
    if (topN !== undefined && (typeof topN !== 'number' || !Number.isInteger(topN) || topN < 1)) {
      return fail(res, 400, 'invalid request: top_n must be a positive integer');
    }

    const step = steps.shift();
    if (step && 'delayMs' in step) {
      await hold(res, step.delayMs);
    } else if (step && step.status !== 200) {
      return fail(res, step.status, SCRIPTED_MESSAGES[step.status]);
    }

    const results = (documents as string[])
      .map((d, index) => ({ index, relevance_score: fakeCohereRelevance(query, d) }))
      .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
      .slice(0, typeof topN === 'number' ? topN : undefined);
    send(res, 200, {
      id: randomUUID(),
      results,
      // One search unit per query and up to 100 documents, as Cohere bills rerank.
      meta: {
        api_version: { version: '2' },
        billed_units: { search_units: Math.ceil(documents.length / 100) },
      },
    });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) => fail(res, 500, error.message));
  });
  const url = await listenOnLoopback(server);
  return {
    baseUrl: url,
    requests,
    script: (...s) => steps.push(...s),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
