/** One SSE event as the client saw it, with when it arrived. */
export interface TimedEvent<T = Record<string, unknown>> {
  data: T;
  /** `performance.now()` at arrival. */
  at: number;
}

export interface SseResponse<T> {
  status: number;
  headers: Headers;
  /** Parsed `data:` payloads in arrival order (empty when the reply was not a stream). */
  events: Array<TimedEvent<T>>;
  /** The body as JSON when the reply was not a stream (pre-stream errors). */
  json?: unknown;
}

/**
 * POSTs and reads the reply as a raw SSE stream, frame by frame, stamping each event's
 * arrival time, so tests see progressive delivery instead of a finished body.
 * `stopWhen` lets a test hang up mid-stream (the client leaving).
 */
export async function postSse<T = Record<string, unknown>>(
  url: string,
  body: unknown,
  options: {
    stopWhen?: (event: T, all: Array<TimedEvent<T>>) => boolean;
    headers?: Record<string, string>;
  } = {},
): Promise<SseResponse<T>> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  if (!response.headers.get('content-type')?.startsWith('text/event-stream')) {
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      events: [],
      json: text ? JSON.parse(text) : undefined,
    };
  }
  const events: Array<TimedEvent<T>> = [];
  const decoder = new TextDecoder();
  let buffer = '';
  const reader = response.body!.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) {
        break;
      }
      buffer += decoder.decode(value as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n');
        if (!data) {
          continue;
        }
        const event = { data: JSON.parse(data) as T, at: performance.now() };
        events.push(event);
        if (options.stopWhen?.(event.data, events)) {
          controller.abort();
          return { status: response.status, headers: response.headers, events };
        }
      }
    }
  } catch (error) {
    if (!controller.signal.aborted) {
      throw error;
    }
  }
  return { status: response.status, headers: response.headers, events };
}
