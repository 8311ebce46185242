import { InvalidInputError } from '@app/common';
import { type DatabaseScope, withDatabaseScope } from '@app/database';

import { toErrorResponse } from '../../common/error-body';
import { type ContextBundle, type ContextFetchRequestDto } from '../../context/context.dto';
import { type ContextService } from '../../context/context.service';
import { type CallIdentity } from '../../context/speculative/call-sessions';
import { type PreparedEvidence } from '../../context/speculative/prepared-evidence';
import {
  type CallStreamEventDto,
  MAX_BUFFERED_BYTES,
  MAX_FRAMES_PER_SECOND,
  parseFrame,
  STREAM_CLOSE,
  STREAM_IDLE_MS,
  type StreamCloseReason,
} from './call-stream.protocol';

/** The part of a `ws` socket a stream uses (`ws` itself is @fastify/websocket's dependency). */
export interface StreamSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close' | 'error', listener: () => void): unknown;
  send(data: string): void;
  close(code: number, reason?: string): void;
}

/** What a stream needs from the rest of the service. */
export interface StreamDeps {
  context: ContextService;
  /** Ends the call (its turns join the contact's history), as POST /calls/end does. */
  endCall: (identity: CallIdentity) => Promise<unknown>;
}

/** Counters for the bench and tests (no ids). */
export interface StreamStats {
  pushed: number;
  /** Speculative updates not sent because the socket still held unsent bytes. */
  dropped: number;
  confirmed: number;
  fresh: number;
}

/** The last speculative evidence pushed to the client, by its bundle id. */
interface Pushed {
  id: number;
  prepared: PreparedEvidence;
}

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
  private window = { start: 0, count: 0 };
  private idle?: NodeJS.Timeout;
  private closed = false;
  /** Row-level security for the frames' work, as the HTTP routes' interceptor sets it. */
  private readonly databaseScope: DatabaseScope;

  constructor(
    private readonly socket: StreamSocket,
    readonly identity: CallIdentity,
    private readonly requestId: string,
    private readonly deps: StreamDeps,
    private readonly stats: StreamStats,
  ) {
    this.databaseScope = identity.scope
      ? { kind: 'locations', locations: identity.scope }
      : { kind: 'every' };
    // A frame's work (and the speculation it starts) runs in the key's database scope: the
    // socket's events come outside any HTTP route, where the interceptor would have set it.
    socket.on('message', (data, isBinary) =>
      withDatabaseScope(this.databaseScope, () => this.onFrame(data, isBinary)),
    );
    socket.on('close', () => this.stop());
    socket.on('error', () => this.stop());
    this.touch();
    this.send({ type: 'ready', call_id: identity.callId });
  }

  /** Closes with `reason`'s code; the reason text is the stable code itself. */
  close(reason: StreamCloseReason): void {
    this.stop();
    if (this.socket.readyState === this.socket.OPEN) {
      this.socket.close(STREAM_CLOSE[reason], reason);
    }
  }

  private stop(): void {
    this.closed = true;
    clearTimeout(this.idle);
  }

  private touch(): void {
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close('stream_idle'), STREAM_IDLE_MS);
    this.idle.unref();
  }

  private onFrame(data: unknown, isBinary: boolean): void {
    const arrivedAt = performance.now();
    if (this.closed) {
      return;
    }
    const now = Date.now();
    if (now - this.window.start >= 1000) {
      this.window = { start: now, count: 0 };
    }
    if (++this.window.count > MAX_FRAMES_PER_SECOND) {
      return this.close('stream_rate_limited');
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

  private request(event: CallStreamEventDto, isFinal: boolean): ContextFetchRequestDto {
    return {
      transcript: event.transcript,
      timeout_ms: event.timeout_ms,
      pool_k: event.pool_k,
      final_k: event.final_k,
      max_tokens: event.max_tokens,
      call_id: this.identity.callId,
      contact_uid: this.identity.contactUid,
      location_uid: this.identity.locationUid,
      is_final: isFinal,
    };
  }

  private interim(event: CallStreamEventDto): void {
    try {
      this.deps.context.interim(
        this.request(event, false),
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

  private async final(event: CallStreamEventDto, arrivedAt: number): Promise<void> {
    let bundle: ContextBundle;
    try {
      bundle = await this.deps.context.build(
        this.request(event, true),
        this.identity.scope,
        arrivedAt,
        this.identity.caller,
      );
    } catch (error) {
      return this.fail(error, event.seq);
    }
    const pushed = this.pushed;
    this.pushed = undefined;
    if (this.closed) {
      return;
    }
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      return this.close('slow_consumer');
    }
    const seq = event.seq;
    if (pushed && sameEvidence(pushed.prepared, bundle)) {
      this.stats.confirmed++;
      // The client holds the excerpts: everything else (live fields re-checked, meta) is sent.
      const { contact, call_memory, meta } = bundle;
      return this.send({
        type: 'confirmed',
        seq,
        bundle_id: pushed.id,
        contact,
        call_memory,
        meta,
      });
    }
    this.stats.fresh++;
    this.send({ type: 'bundle', seq, bundle_id: ++this.nextId, bundle });
  }

  /** As the HTTP routes answer it; an unknown error is a generic 500 (its text never leaves). */
  private fail(error: unknown, seq?: number): void {
    const [, problem] = toErrorResponse(error, this.requestId);
    this.send({ type: 'error', seq, problem });
  }

  private send(message: object): void {
    if (!this.closed && this.socket.readyState === this.socket.OPEN) {
      this.socket.send(JSON.stringify(message));
    }
  }
}

/** The final's evidence is what was pushed: the same object, or equal excerpts and count. */
function sameEvidence(prepared: PreparedEvidence, bundle: ContextBundle): boolean {
  const pushed = prepared.assembled;
  return (
    pushed.excerpts === bundle.historical_excerpts ||
    (pushed.token_count === bundle.token_count &&
      JSON.stringify(pushed.excerpts) === JSON.stringify(bundle.historical_excerpts))
  );
}
