/** Longest vendor message kept in an error: enough for a reason, not for a payload echo. */
const MAX_VENDOR_TEXT = 200;

/** Things shaped like API keys (`sk-…`, `sk-ant-…`, bearer tokens) never leave in a message. */
const KEY_LIKE = /\b(?:sk-[A-Za-z0-9_-]{6,}|Bearer\s+\S+)/g;

/**
 * A vendor's error message made safe for logs and for the client's SSE `error` event: the
 * configured key and anything key-shaped are replaced, whitespace is folded and the text is
 * capped. Vendors do not echo keys today; this keeps it that way if one ever does.
 */
export function safeVendorText(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const secret of secrets) {
    if (secret && secret.length >= 4) {
      out = out.split(secret).join('[redacted]');
    }
  }
  out = out.replace(KEY_LIKE, '[redacted]').replace(/\s+/g, ' ').trim();
  return out.length > MAX_VENDOR_TEXT ? `${out.slice(0, MAX_VENDOR_TEXT - 1)}…` : out;
}

/** The SDK error classes a failure is told apart by; both official SDKs have all four. */
export interface SdkErrorClasses<E extends Error & { status?: number }> {
  userAbort: abstract new (...args: never[]) => Error;
  connectionTimeout: abstract new (...args: never[]) => Error;
  connection: abstract new (...args: never[]) => Error;
  api: abstract new (...args: never[]) => E;
}

/**
 * Why a vendor stream failed, in words safe to show: abort, timeout, unreachable, an HTTP
 * error, or an error event mid-stream (an API error without a status). `apiDetail` reads the
 * vendor's type and message from its API error, which the two SDKs shape differently.
 */
export function describeVendorFailure<E extends Error & { status?: number }>(
  error: unknown,
  signal: AbortSignal,
  classes: SdkErrorClasses<E>,
  apiDetail: (error: E) => { type: string; message?: string | null },
  secrets: ReadonlyArray<string | undefined>,
): string {
  if (signal.aborted || error instanceof classes.userAbort) {
    return 'request aborted';
  }
  if (error instanceof classes.connectionTimeout) {
    return 'request timed out';
  }
  if (error instanceof classes.connection) {
    return 'API unreachable';
  }
  if (error instanceof classes.api) {
    const { type, message } = apiDetail(error);
    const detail = message ? `: ${safeVendorText(message, secrets)}` : '';
    return error.status === undefined
      ? `stream failed mid-answer (${type})${detail}`
      : `API answered HTTP ${error.status} (${type})${detail}`;
  }
  return `stream failed (${(error as Error | undefined)?.name ?? 'unknown error'})`;
}

/**
 * The stream loop both vendor SDKs share: open the request, yield each event's text, and
 * map anything thrown (opening, mid-stream, or a quiet end after an abort) through `fail`.
 * Leaving the loop early (the consumer stopped) makes the SDK abort the HTTP request.
 */
export async function* vendorTextStream<T>(
  open: () => Promise<AsyncIterable<T>>,
  textOf: (event: T) => string | null | undefined,
  fail: (error: unknown) => Error,
  signal: AbortSignal,
): AsyncGenerator<string> {
  let events: AsyncIterable<T>;
  try {
    events = await open();
  } catch (error) {
    throw fail(error);
  }
  try {
    for await (const event of events) {
      const text = textOf(event);
      if (text) {
        yield text;
      }
    }
  } catch (error) {
    throw fail(error);
  }
  // On an abort the SDKs end the iteration quietly; an aborted answer is not a full one.
  if (signal.aborted) {
    throw fail(signal.reason);
  }
}
