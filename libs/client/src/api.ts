import createClient, { type Client } from 'openapi-fetch';

import { BridgeError } from './errors';
import { type paths } from './generated/openapi';
import { type ProblemBody } from './types';

/** A typed client of every route in the contract: `api.POST('/search', { body })`. */
export type BridgeApi = Client<paths>;

export interface BridgeApiOptions {
  /** e.g. `http://context-bridge:3004` */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; its location binding scopes every read. */
  apiKey?: string;
  fetch?: typeof fetch;
}

/** openapi-fetch over the generated `paths`, with the API key on every request. */
export function createBridgeApi(options: BridgeApiOptions): BridgeApi {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    // Late-bound, so a fetch swapped in after creation (tests, instrumentation) is used.
    fetch: (request: Request) => fetchImpl(request),
    ...(options.apiKey ? { headers: { authorization: `Bearer ${options.apiKey}` } } : {}),
  });
}

/**
 * The data of an openapi-fetch answer, or a {@link BridgeError} with the server's stable
 * code, status and request id: `const hits = await unwrap(api.POST('/search', { body }))`.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) {
    return data as T;
  }
  const problem = (error ?? {}) as Partial<ProblemBody>;
  throw new BridgeError(
    typeof problem.error === 'string' ? problem.error : `http_${response.status}`,
    typeof problem.message === 'string' ? problem.message : response.statusText,
    response.status,
    response.headers.get('x-request-id') ?? undefined,
  );
}
