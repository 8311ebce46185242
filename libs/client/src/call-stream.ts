import { BridgeError, BridgeTimeoutError } from './errors';
import { transcriptTail } from './transcript';
import { type ContextBundle, type HistoricalExcerpt, type ProblemBody } from './types';

/** The part of a WebSocket the stream uses (Node's global one, a browser's, or `ws`). */
export interface WebSocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(
    type: 'open' | 'close' | 'error' | 'message',
    listener: (event: { data?: unknown; code?: number; reason?: string }) => void,
  ): void;
}

export interface CallStreamOptions {
  callId: string;
  /** Without it the call is never speculated on (its search would span every contact). */
  contactUid?: string;
  locationUid?: string;
  /** How long `final` may take before BridgeTimeoutError (ms); default 400. */
  deadlineMs?: number;
  /** A speculative bundle (its excerpts) arrived ahead of the final. */
  onSpeculative?: (update: SpeculativeUpdate) => void;
  /**
   * Opens the socket; default Node's (or the browser's) global WebSocket, with the API key in
   * `Authorization` (Node's takes headers; in a browser, put a proxy in front that adds it).
   */
  connect?: (url: string, headers: Record<string, string>) => WebSocketLike;
}

/** Evidence the server searched on interim speech, pushed as soon as it was ready. */
export interface SpeculativeUpdate {
  bundle_id: number;
  historical_excerpts: HistoricalExcerpt[];
  token_count: number;
}

/** Node's WebSocket (undici) takes `{ headers }` where a browser's takes protocols. */
const nodeInit = (init: { headers: Record<string, string> }): unknown => init;

type ServerMessage = { type: string; seq?: number; bundle_id?: number } & Record<string, unknown>;

const DEFAULT_DEADLINE_MS = 400;
const OPEN = 1;

/**
 * A call's stream (`GET /calls/{call_id}/stream`): send every interim hypothesis of the speech
 * engine with {@link interim} (no answer) and each final one with {@link final}. The server
 * searches stable interims and pushes their evidence; a final it served from that evidence is
 * answered `confirmed` (a small message), else with a whole bundle. `final` resolves with the
 * whole bundle either way, the same as `POST /context` answers.
 */
export class CallStream {
  private readonly pushed = new Map<number, SpeculativeUpdate>();
  private readonly waiting = new Map<number, (message: ServerMessage) => void>();
  private seq = 0;
  private last?: Promise<ContextBundle>;
  readonly closed: Promise<{ code: number; reason: string }>;

  private constructor(
    private readonly socket: WebSocketLike,
    private readonly options: CallStreamOptions,
  ) {
    socket.addEventListener('message', (event) => this.onMessage(String(event.data)));
    this.closed = new Promise((resolve) =>
      socket.addEventListener('close', (event) => {
        const failure = new BridgeError(event.reason || 'stream_closed', 'The stream closed.');
        for (const settle of this.waiting.values()) {
          settle({ type: 'closed', failure });
        }
        this.waiting.clear();
        resolve({ code: event.code ?? 1005, reason: event.reason ?? '' });
      }),
    );
  }

  /** Opens the stream; rejects when the upgrade is refused (auth, location, too many calls). */
  static async open(
    baseUrl: string,
    apiKey: string | undefined,
    options: CallStreamOptions,
  ): Promise<CallStream> {
    const query = new URLSearchParams();
    if (options.contactUid) {
      query.set('contact_uid', options.contactUid);
    }
    if (options.locationUid) {
      query.set('location_uid', options.locationUid);
    }
    const path = `/calls/${encodeURIComponent(options.callId)}/stream?${query.toString()}`;
    const url = `${baseUrl.replace(/^http/, 'ws')}${path}`;
    const headers: Record<string, string> = apiKey ? { authorization: `Bearer ${apiKey}` } : {};
    const socket = options.connect
      ? options.connect(url, headers)
      : (new WebSocket(url, nodeInit({ headers }) as string) as unknown as WebSocketLike);
    const stream = new CallStream(socket, options);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve());
      socket.addEventListener('error', () =>
        reject(new BridgeError('stream_refused', 'The call stream could not be opened.')),
      );
    });
    return stream;
  }

  /** An interim hypothesis: sent, never answered (the server may search it). */
  interim(transcript: string): void {
    this.send({ type: 'interim', transcript: transcriptTail(transcript) });
  }

  /**
   * A final transcript chunk: its bundle, or BridgeError (the server's code) /
   * BridgeTimeoutError past the deadline. Send it as soon as the engine finalises the text:
   * {@link turnBundle} then has it ready when the turn ends.
   */
  final(transcript: string, deadlineMs = this.options.deadlineMs ?? DEFAULT_DEADLINE_MS) {
    const seq = ++this.seq;
    const answer = new Promise<ContextBundle>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(seq);
        reject(new BridgeTimeoutError(deadlineMs));
      }, deadlineMs);
      this.waiting.set(seq, (message) => {
        clearTimeout(timer);
        this.waiting.delete(seq);
        const bundle = this.bundleOf(message);
        return bundle instanceof Error ? reject(bundle) : resolve(bundle);
      });
    });
    this.send({ type: 'final', transcript: transcriptTail(transcript), seq });
    this.last = answer;
    // A turn nobody awaited must not surface as an unhandled rejection.
    answer.catch(() => undefined);
    return answer;
  }

  /**
   * The bundle of the turn that just ended: the last {@link final}'s (usually answered
   * already), else `transcript` sent as the final now. Clears it for the next turn.
   */
  turnBundle(transcript?: string): Promise<ContextBundle> | undefined {
    const last = this.last ?? (transcript ? this.final(transcript) : undefined);
    this.last = undefined;
    return last;
  }

  /** Ends the call (its turns join the contact's history) and closes the stream. */
  async end(): Promise<void> {
    this.send({ type: 'end' });
    await this.closed;
  }

  close(): void {
    this.socket.close(1000);
  }

  private send(event: object): void {
    if (this.socket.readyState === OPEN) {
      this.socket.send(JSON.stringify(event));
    }
  }

  private onMessage(data: string): void {
    const message = JSON.parse(data) as ServerMessage;
    if (message.type === 'speculative') {
      const update = message as unknown as SpeculativeUpdate;
      this.pushed.clear(); // only the newest can be confirmed
      this.pushed.set(update.bundle_id, update);
      this.options.onSpeculative?.(update);
      return;
    }
    if (message.seq !== undefined) {
      this.waiting.get(message.seq)?.(message);
    }
  }

  private bundleOf(message: ServerMessage): ContextBundle | Error {
    switch (message.type) {
      case 'bundle':
        return message.bundle as ContextBundle;
      case 'confirmed': {
        const held = this.pushed.get(message.bundle_id as number);
        if (!held) {
          return new BridgeError('invalid_response', 'Confirmed a bundle this client lacks.');
        }
        return {
          contact: message.contact as ContextBundle['contact'],
          meta: message.meta as ContextBundle['meta'],
          ...(message.call_memory
            ? { call_memory: message.call_memory as ContextBundle['call_memory'] }
            : {}),
          historical_excerpts: held.historical_excerpts,
          token_count: held.token_count,
        };
      }
      case 'closed':
        return message.failure as BridgeError;
      default: {
        const problem = message.problem as ProblemBody | undefined;
        return new BridgeError(
          problem?.error ?? 'invalid_response',
          problem?.detail ?? 'Unexpected stream message.',
          problem?.status ?? 0,
          problem?.request_id,
        );
      }
    }
  }
}
