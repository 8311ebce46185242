import { type ContextService } from '../../context/context.service';
import { type CallIdentity } from '../../context/speculative/call-sessions';

/** The part of a `ws` socket a stream uses (`ws` itself is @fastify/websocket's dependency). */
export interface StreamSocket {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'ping', listener: (data: Buffer) => void): unknown;
  on(event: 'close' | 'error' | 'pong', listener: () => void): unknown;
  send(data: string): void;
  ping(): void;
  pong(data: Buffer): void;
  close(code: number, reason?: string): void;
  /** Destroys the socket at once (no closing handshake). */
  terminate(): void;
}

/** What a stream needs from the rest of the service. */
export interface StreamDeps {
  context: ContextService;
  /** Ends the call (its turns join the contact's history), as POST /calls/end does. */
  endCall: (identity: CallIdentity) => Promise<unknown>;
  /** A turn that built no bundle joins the call's memory (its turns, then its history). */
  remember: (identity: CallIdentity, transcript: string) => void;
}

/** Counters for the bench and tests (no ids). */
export interface StreamStats {
  pushed: number;
  /** Speculative updates not sent because the socket still held unsent bytes. */
  dropped: number;
  confirmed: number;
  fresh: number;
}
