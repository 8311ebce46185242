import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

import { listenOnLoopback, readBody } from './loopback';
import { fakeEmbedding } from './openai-server';

export interface FakeTeiEmbed {
  url: string;
  requests: Array<{ path: string; body: unknown }>;
  /** The next request gets this TEI error status (503 unhealthy, 413 batch too large, ...). */
  failNext(status: 413 | 424 | 429 | 503): void;
  close(): Promise<void>;
}

/**
 * A loopback HuggingFace text-embeddings-inference server: `POST /embed` with `inputs` as a
 * string or array (max client batch 32, like TEI's default), `normalize`, `truncate`; the
 * response is a bare `number[][]`; errors are `{ error, error_type }`. `GET /info` reports
 * the model id.
 */
export async function startFakeTeiEmbed(
  options: { dimension?: number; modelId?: string } = {},
): Promise<FakeTeiEmbed> {
  const dimension = options.dimension ?? 384;
  const requests: FakeTeiEmbed['requests'] = [];
  const failures: number[] = [];
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const body = raw ? (JSON.parse(raw) as { inputs?: unknown }) : undefined;
    requests.push({ path: req.url ?? '', body });
    if (req.method === 'GET' && req.url === '/info') {
      return send(res, 200, {
        model_id: options.modelId ?? 'BAAI/bge-small-en-v1.5',
        max_client_batch_size: 32,
      });
    }
    if (req.method !== 'POST' || req.url !== '/embed') {
      return send(res, 404, { error: 'Not Found', error_type: 'NotFound' });
    }
    const failure = failures.shift();
    if (failure) {
      return send(res, failure, {
        error: `scripted ${failure}`,
        error_type: failure === 413 ? 'Validation' : 'Backend',
      });
    }
    const inputs = typeof body?.inputs === 'string' ? [body.inputs] : body?.inputs;
    if (
      !Array.isArray(inputs) ||
      inputs.length === 0 ||
      inputs.some((i) => typeof i !== 'string')
    ) {
      return send(res, 422, {
        error: 'Input validation error: `inputs` cannot be empty',
        error_type: 'Validation',
      });
    }
    if (inputs.length > 32) {
      return send(res, 413, {
        error: 'batch size 33 > maximum allowed batch size 32',
        error_type: 'Validation',
      });
    }
    send(
      res,
      200,
      inputs.map((input: string) => fakeEmbedding(input, dimension)),
    );
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: Error) =>
      send(res, 500, { error: error.message, error_type: 'Backend' }),
    );
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    requests,
    failNext: (status) => failures.push(status),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
