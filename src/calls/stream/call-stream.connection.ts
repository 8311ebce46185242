import { InvalidInputError } from '@app/common';
import { type DatabaseScope, withDatabaseScope } from '@app/database';

import { toErrorResponse } from '../../common/error-body';
import { type ContextBundle } from '../../context/context.dto';
import { type CallIdentity } from '../../context/speculative/call-sessions';
import { type PreparedEvidence } from '../../context/speculative/prepared-evidence';
import { finalAnswer, type Pushed, streamRequest } from './call-stream.answer';
import {
  CallerFinals,
  Heartbeat,
  StreamBudget,
  StreamBusyError,
  StreamFinalsRateError,
} from './call-stream.guards';
import {
  type CallStreamEventDto,
  CLOSE_GRACE_MS,
  MAX_BUFFERED_BYTES,
  parseFrame,
  STREAM_CLOSE,
  STREAM_IDLE_MS,
  type StreamCloseReason,
} from './call-stream.protocol';
import { type StreamDeps, type StreamSocket, type StreamStats } from './call-stream.socket';
import { FinalsPacer } from './finals-pacer';
import { KeptWords } from './kept-words';

/**
 * One call's stream. Interim events are speculated on as `POST /context` with
 * `is_final: false` does; each speculative evidence, once assembled, is pushed at once
 * (`speculative`, with a new `bundle_id`). A final event is built exactly as `POST /context`
 * builds it (the live fields looked up again); when its evidence is the one pushed last, the
 * answer is `confirmed` with that `bundle_id` and only what the client lacks (contact, the
 * call's recalled turns, meta), else a whole `bundle`.
 */
export class CallStreamConnection {
  private nextId = 0;
  private pushed?: Pushed;
  private readonly budget = new StreamBudget();
  private readonly kept = new KeptWords();
  private readonly heartbeat: Heartbeat;
  private idle?: NodeJS.Timeout;
  private closed = false;
  /** Shutting down: no new work; closed once the finals in flight are answered. */
  private draining = false;
  private ended!: () => void;
  /** Settles once the stream stopped (closed by either side, or cut). */
  readonly finished = new Promise<void>((resolve) => (this.ended = resolve));
  /** Row-level security for the frames' work, as the HTTP routes' interceptor sets it. */
  private readonly databaseScope: DatabaseScope;

  constructor(
    private readonly socket: StreamSocket,
    readonly identity: CallIdentity,
    private readonly requestId: string,
    private readonly deps: StreamDeps,
    private readonly stats: StreamStats,
    /** Shared by the process's streams (CallStreams); one of its own when alone. */
    private readonly callers = new CallerFinals(),
    private readonly pacer = new FinalsPacer(),
  ) {
    this.databaseScope = identity.scope
      ? { kind: 'locations', locations: identity.scope }
      : { kind: 'every' };
    // A frame's work (and the speculation it starts) runs in the key's database scope: the
    // socket's events come outside any HTTP route, where the interceptor would have set it.
    socket.on('message', (data, isBinary) =>
      withDatabaseScope(this.databaseScope, () => this.onFrame(data, isBinary)),
    );
    // Pongs are ours to send (the WebSocket layer's automatic pong is off): a ping costs one.
    socket.on('ping', (data) => {
      if (this.admit()) {
        socket.pong(data);
      }
    });
    socket.on('pong', () => this.heartbeat.alive());
    socket.on('close', () => this.stop());
    socket.on('error', () => this.stop());
    this.heartbeat = new Heartbeat(
      () => socket.ping(),
      () => this.close('pong_timeout', true),
    );
    this.heartbeat.start();
    this.touch();
    this.send({ type: 'ready', call_id: identity.callId });
  }

  /**
   * Closes with `reason`'s code; the reason text is the stable code itself. `cut` also
   * destroys the socket: a peer that does not read would never answer the closing handshake.
   */
  close(reason: StreamCloseReason, cut = false): void {
    this.stop();
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.close(STREAM_CLOSE[reason], reason);
    }
    if (cut) {
      this.socket.terminate();
    } else if (reason !== 'shutting_down') {
      // Shutdown cuts at SHUTDOWN_DRAIN_MS; any other close, a peer that never answers is cut
      // here (terminate is a no-op on a socket already closed).
      setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS).unref();
    }
  }

  /** Shutdown: takes no new frame, and closes (1001) once its finals in flight are answered. */
  drain(): void {
    this.draining = true;
    if (this.budget.finalsInFlight === 0) {
      this.close('shutting_down');
    }
  }

  /** The end of the drain window: whatever is still open goes. */
  terminate(): void {
    this.stop();
    this.socket.terminate();
  }

  private stop(): void {
    // Words of unbuilt finals join the call's memory (which joins history): the stream will
    // build nothing more. A flooding caller's are within its shared budget, as its builds are.
    const kept = this.kept.take();
    if (kept.length > 0 && this.pacer.mayRemember(this.identity.caller, this.identity.callId)) {
      this.deps.remember(this.identity, kept);
    }
    this.closed = true;
    clearTimeout(this.idle);
    this.heartbeat.stop();
    this.ended();
  }

  private touch(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close('stream_idle'), STREAM_IDLE_MS);
    this.idle.unref();
  }

  /**
   * Every frame from the client, message or ping: within the rate, and only while the client
   * reads what it is sent (each frame may cost an answer). False once the stream is closed.
   */
  private admit(): boolean {
    if (this.closed || this.draining) {
      return false;
    }
    this.heartbeat.alive();
    if (!this.budget.frame()) {
      this.close('stream_rate_limited');
      return false;
    }
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close('slow_consumer');
      return false;
    }
    return true;
  }

  private onFrame(data: unknown, isBinary: boolean): void {
    const arrivedAt = performance.now();
    if (!this.admit()) {
      return;
    }
    this.touch();
    if (isBinary) {
      return this.close('bad_frame');
    }
    const frame = parseFrame(String(data));
    switch (frame.kind) {
      case 'bad_frame':
        return this.close('bad_frame');
      case 'end':
        if (!this.kept.empty) {
          this.deps.remember(this.identity, this.kept.take()); // joins history with the call
        }
        // Ending never fails the stream: a history join that failed is logged by the registry.
        void this.deps
          .endCall(this.identity)
          .catch(() => undefined)
          .finally(() => this.close('call_ended'));
        return;
      case 'invalid':
        return this.fail(new InvalidInputError('validation_failed', frame.message), frame.seq);
      case 'event':
        return frame.event.type === 'interim'
          ? this.interim(frame.event)
          : void this.final(frame.event, arrivedAt);
    }
  }

  private interim(event: CallStreamEventDto): void {
    try {
      this.deps.context.interim(
        streamRequest(this.identity, event, false),
        this.identity.scope,
        this.identity.caller,
        (prepared) => this.push(prepared),
      );
    } catch (error) {
      this.fail(error, event.seq);
    }
  }

  /** Backpressure: an update the socket cannot take now is dropped; a newer one follows. */
  private push(prepared: PreparedEvidence): void {
    if (this.closed) {
      return;
    }
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.stats.dropped++;
      return;
    }
    this.pushed = { id: ++this.nextId, prepared };
    this.stats.pushed++;
    this.send({
      type: 'speculative',
      bundle_id: this.pushed.id,
      historical_excerpts: prepared.assembled.excerpts,
      token_count: prepared.assembled.token_count,
    });
  }

  /** Built, or (over a cap) answered 429 with its words kept for the next built one. */
  private async final(event: CallStreamEventDto, arrivedAt: number): Promise<void> {
    const refusal = this.budget.finalsFull
      ? new StreamBusyError()
      : this.pacer.take(this.identity.caller, this.identity.callId) === 'keep'
        ? new StreamFinalsRateError()
        : undefined;
    if (refusal) {
      this.kept.add(event.transcript);
      return this.fail(refusal, event.seq);
    }
    this.budget.takeFinal();
    const transcript = this.kept.takeWith(event.transcript);
    const turn = await this.callers.take(this.identity.caller);
    try {
      // A client gone while its final waited for its caller's turn costs no build.
      if (!this.closed) {
        await this.answerFinal(event, arrivedAt, transcript);
      } else {
        this.deps.remember(this.identity, transcript);
      }
    } finally {
      turn();
      this.budget.releaseFinal();
      if (this.draining && this.budget.finalsInFlight === 0) {
        this.close('shutting_down');
      }
    }
  }

  private async answerFinal(
    event: CallStreamEventDto,
    arrivedAt: number,
    transcript: string,
  ): Promise<void> {
    let bundle: ContextBundle;
    try {
      bundle = await this.deps.context.build(
        streamRequest(this.identity, event, true, transcript),
        this.identity.scope,
        arrivedAt,
        this.identity.caller,
      );
    } catch (error) {
      return this.fail(error, event.seq);
    }
    const answer = finalAnswer(bundle, this.pushed, event.seq, () => ++this.nextId);
    this.pushed = undefined;
    this.stats[answer.type === 'confirmed' ? 'confirmed' : 'fresh']++;
    this.send(answer);
  }

  /** As the HTTP routes answer it; an unknown error is a generic 500 (its text never leaves). */
  private fail(error: unknown, seq?: number): void {
    const [, problem] = toErrorResponse(error, this.requestId);
    this.send({ type: 'error', seq, problem });
  }

  /** Every answer but a droppable update: a client that still holds the last ones unread is cut. */
  private send(message: object): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) {
      return;
    }
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      return this.close('slow_consumer');
    }
    this.socket.send(JSON.stringify(message));
  }
}
