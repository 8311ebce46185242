import type * as Sdk from '@qdrant/js-client-rest' with { 'resolution-mode': 'import' };

/**
 * The official client. Its package lists the ESM typings first in `exports`, so TypeScript
 * resolves them as ESM from our CommonJS build; the package also ships a CommonJS bundle,
 * which is what `require` loads here, typed by the ESM declarations.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const qdrantSdk = require('@qdrant/js-client-rest') as typeof Sdk;

/** The client instance type, and Qdrant's OpenAPI component schemas as the client ships them. */
export type QdrantClient = Sdk.QdrantClient;
export type Schemas = Sdk.Schemas;

/** The HTTP status of a failed call (the client throws `ApiError`s carrying it), if any. */
export function httpStatus(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Qdrant's own error text (`{"status":{"error":"…"}}`) with quoted values masked: serde
 * messages quote the offending value, which could be customer text.
 */
function serverMessage(error: unknown): string | undefined {
  const data = (error as { data?: { status?: { error?: unknown } } } | null)?.data;
  const message = data?.status?.error;
  return typeof message === 'string' ? message.replace(/"[^"]*"/g, '"…"').slice(0, 300) : undefined;
}

/** One line saying what went wrong talking to Qdrant at `origin`, for errors and readiness. */
export function describeFailure(error: unknown, origin: string, timeoutMs: number): string {
  // The SDK wraps its own timeout's abort; the name check also catches the abort when the
  // fetch runs in another realm (as under jest), where the SDK's `instanceof Error` misses it.
  if (
    error instanceof qdrantSdk.QdrantClientTimeoutError ||
    (error as Error | null)?.name === 'AbortError'
  ) {
    return `Qdrant at ${origin} did not answer within ${timeoutMs} ms`;
  }
  const status = httpStatus(error);
  if (status !== undefined) {
    const message = serverMessage(error);
    return `Qdrant at ${origin} answered HTTP ${status}${message ? `: ${message}` : ''}`;
  }
  if (error instanceof qdrantSdk.QdrantClientUnexpectedResponseError) {
    return `Qdrant at ${origin} answered unexpectedly`;
  }
  // fetch failures: the reason (ECONNREFUSED, ENOTFOUND, …) is on the cause.
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const reason =
    (typeof cause?.code === 'string' && cause.code) ||
    (typeof cause?.message === 'string' && cause.message) ||
    (error as Error)?.message ||
    'unknown error';
  return `Qdrant at ${origin} is unreachable (${reason})`;
}
