import { type ChatEvent, type ChatFailure } from './chat-state';
import { readSse } from './sse-reader';

export interface ChatRequest {
  endpoint: string;
  query: string;
  userId: string;
  history?: Array<{ role: 'user' | 'assistant'; content: string }>;
  /** A bearer token for `CHAT_AUTH=jwt`. */
  token?: string;
  signal: AbortSignal;
}

/** A request that failed before its stream started, with what to tell the user. */
export class ChatRequestError extends Error {
  constructor(readonly failure: ChatFailure) {
    super(failure.message);
  }
}

const TYPES = new Set(['chunk', 'citations', 'out_of_scope', 'error', 'done']);

/** Wording for the codes an employee can meet; anything else falls back to the server's. */
function describe(code: string, status: number, serverMessage: string, retryAfter: string | null) {
  switch (code) {
    case 'query_too_short':
      return 'Please ask a longer question (at least 3 characters).';
    case 'user_not_found':
      return 'R42 does not know your account yet. Ask your admin to add you, then try again.';
    case 'retrieval_failed':
      return 'The knowledge base is not answering right now. Please try again in a moment.';
    case 'rate_limited': {
      const seconds = Number(retryAfter);
      return Number.isFinite(seconds) && seconds > 0
        ? `Too many questions at once. Please wait ${Math.ceil(seconds)} s and try again.`
        : 'Too many questions at once. Please wait a moment and try again.';
    }
  }
  if (status === 401) {
    return 'Your session could not be verified. Sign in again, then try again.';
  }
  return serverMessage || `R42 could not answer (HTTP ${status}). Please try again.`;
}

/**
 * POSTs a question to `/chat` and yields its events as they arrive. Errors the server
 * answers before the stream (JSON bodies: 400, 401, 404, 429, 503…) and network failures
 * throw a {@link ChatRequestError}; aborting `signal` drops the connection, which is how the
 * server learns to stop its model call.
 */
export async function* streamChat(request: ChatRequest): AsyncGenerator<ChatEvent> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'text/event-stream',
  };
  if (request.token) {
    headers.authorization = `Bearer ${request.token}`;
  }
  const body = { query: request.query, userId: request.userId, history: request.history };
  let response: Response;
  try {
    response = await fetch(request.endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: request.signal,
      credentials: 'omit', // identity is the body's userId (or the bearer token), never cookies
    });
  } catch (error) {
    if (request.signal.aborted) {
      throw error;
    }
    throw new ChatRequestError({
      code: 'network_error',
      message: 'R42 cannot be reached. Check your connection and try again.',
    });
  }
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.startsWith('text/event-stream') || !response.body) {
    const parsed = (await response.json().catch(() => ({}))) as {
      error?: unknown;
      message?: unknown;
    };
    const code = typeof parsed.error === 'string' ? parsed.error : `http_${response.status}`;
    const message = typeof parsed.message === 'string' ? parsed.message : '';
    throw new ChatRequestError({
      code,
      message: describe(code, response.status, message, response.headers.get('retry-after')),
    });
  }
  for await (const message of readSse(response.body)) {
    let event: unknown;
    try {
      event = JSON.parse(message.data);
    } catch {
      continue; // not ours (a proxy's keep-alive, say): the stream's own frames are JSON
    }
    const kind = (event as { type?: unknown } | null)?.type;
    if (typeof kind === 'string' && TYPES.has(kind)) {
      yield event as ChatEvent;
    }
  }
}
