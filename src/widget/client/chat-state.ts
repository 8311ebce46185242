/** A topic the answer drew on (`POST /chat`'s `citations` event). */
export interface Citation {
  id: string;
  title: string;
}

/** Every event `POST /chat` streams (the server's `ChatEvent` union). */
export type ChatEvent =
  | { type: 'chunk'; text: string }
  | { type: 'citations'; topics: Citation[] }
  | { type: 'out_of_scope'; text: string }
  | { type: 'error'; error: string; message: string }
  | { type: 'done' };

/** A failure the user is told about, with the machine code the server (or the widget) gave. */
export interface ChatFailure {
  code: string;
  message: string;
}

/** One question and what became of it. */
export interface Exchange {
  question: string;
  status: 'waiting' | 'streaming' | 'answered' | 'out_of_scope' | 'failed';
  /** The streamed answer so far, or the out-of-scope text. */
  answer: string;
  /** Shown only once the stream is `done`: pills never appear under a half-written answer. */
  citations: Citation[];
  /** Citations received but not yet shown (the `citations` event precedes `done`). */
  pending: Citation[];
  failure?: ChatFailure;
}

export interface ChatState {
  open: boolean;
  exchanges: Exchange[];
}

export type ChatAction =
  | { type: 'open' }
  | { type: 'close' }
  | { type: 'ask'; question: string; keepHistory: boolean }
  | { type: 'retry' }
  | { type: 'event'; event: ChatEvent }
  /** The request failed before or outside the stream (HTTP error, network, bad frame). */
  | { type: 'failed'; failure: ChatFailure }
  /** The body ended; a stream that ends without `done` was cut off. */
  | { type: 'ended' };

export const INITIAL_STATE: ChatState = { open: false, exchanges: [] };

/** Turns the spec's "last N messages" may carry (the server accepts at most 20). */
export const MAX_HISTORY_TURNS = 20;
/** The server refuses a history turn longer than this. */
const MAX_TURN_CHARS = 4000;

/** A turn cut to the server's limit, never through an emoji (it refuses a lone surrogate). */
function capTurn(text: string): string {
  const end = /[\ud800-\udbff]/.test(text.charAt(MAX_TURN_CHARS - 1))
    ? MAX_TURN_CHARS - 1
    : MAX_TURN_CHARS;
  return text.slice(0, end);
}

const INTERRUPTED: ChatFailure = {
  code: 'stream_interrupted',
  message: 'The answer was cut off. Please try again.',
};

const current = (state: ChatState): Exchange | undefined => state.exchanges.at(-1);

/** True while a request is in flight: a second question waits until this one settles. */
export const isBusy = (state: ChatState): boolean => {
  const last = current(state);
  return last?.status === 'waiting' || last?.status === 'streaming';
};

const withLast = (state: ChatState, change: (last: Exchange) => Exchange): ChatState => {
  const last = current(state);
  const next = last && change(last);
  // Unchanged is the same object, so the element skips a render.
  return next && next !== last
    ? { ...state, exchanges: [...state.exchanges.slice(0, -1), next] }
    : state;
};

/** Applies one stream event to the exchange in flight; a settled exchange ignores stragglers. */
function applyEvent(last: Exchange, event: ChatEvent): Exchange {
  if (last.status !== 'waiting' && last.status !== 'streaming') {
    return last;
  }
  switch (event.type) {
    case 'chunk':
      return { ...last, status: 'streaming', answer: last.answer + event.text };
    case 'citations':
      return { ...last, pending: event.topics };
    case 'out_of_scope':
      return { ...last, status: 'out_of_scope', answer: event.text, pending: [] };
    case 'error':
      return { ...last, status: 'failed', failure: { code: event.error, message: event.message } };
    case 'done':
      return last.status === 'streaming'
        ? { ...last, status: 'answered', citations: last.pending, pending: [] }
        : { ...last, status: 'failed', failure: INTERRUPTED }; // done with nothing said
  }
}

/**
 * The widget's whole state as a pure reducer: the element renders whatever this returns and
 * runs the request it implies. Closing returns the initial state (the spec: state is local
 * to the component and cleared on close).
 */
export function reduce(state: ChatState, action: ChatAction): ChatState {
  switch (action.type) {
    case 'open':
      return state.open ? state : { ...INITIAL_STATE, open: true };
    case 'close':
      return INITIAL_STATE;
    case 'ask': {
      const question = action.question.trim();
      if (!state.open || isBusy(state) || question === '') {
        return state;
      }
      const exchange: Exchange = {
        question,
        status: 'waiting',
        answer: '',
        citations: [],
        pending: [],
      };
      // Without history each question stands alone, so the drawer shows only the latest;
      // with it, a failed exchange is dropped once the user moves on (its retry is moot).
      const kept = action.keepHistory ? state.exchanges.filter((e) => e.status !== 'failed') : [];
      return { ...state, exchanges: [...kept, exchange] };
    }
    case 'retry':
      return current(state)?.status === 'failed'
        ? withLast(state, (last) => ({
            question: last.question,
            status: 'waiting',
            answer: '',
            citations: [],
            pending: [],
          }))
        : state;
    case 'event':
      return withLast(state, (last) => applyEvent(last, action.event));
    case 'failed':
      return withLast(state, (last) =>
        isBusy(state) ? { ...last, status: 'failed', failure: action.failure } : last,
      );
    case 'ended':
      return withLast(state, (last) =>
        isBusy(state) ? { ...last, status: 'failed', failure: INTERRUPTED } : last,
      );
  }
}

/**
 * The spec's "last N messages" for a follow-up: earlier answered exchanges only (a failed
 * or out-of-scope one taught the model nothing), oldest first, at most `max` turns.
 */
export function historyFor(
  state: ChatState,
  max = MAX_HISTORY_TURNS,
): Array<{ role: 'user' | 'assistant'; content: string }> {
  const turns = state.exchanges
    .slice(0, -1)
    .filter((e) => e.status === 'answered')
    .flatMap((e) => [
      { role: 'user' as const, content: capTurn(e.question) },
      { role: 'assistant' as const, content: capTurn(e.answer) },
    ]);
  return max > 0 ? turns.slice(-max) : [];
}
