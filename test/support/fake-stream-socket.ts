import { type StreamSocket } from '../../src/calls/stream/call-stream.socket';
import { type ContextBundle } from '../../src/context/context.dto';

/** The smallest bundle a stream answers with: what the stream specs' builds resolve to. */
export const EMPTY_BUNDLE = {
  contact: { live_fields_available: false },
  historical_excerpts: [],
  token_count: 0,
  meta: {},
} as unknown as ContextBundle;

/** A socket that records what is sent and closed, with a settable unsent-bytes count. */
export class FakeStreamSocket implements StreamSocket {
  readonly OPEN = 1;
  readyState = 1;
  bufferedAmount = 0;
  readonly sent: Array<Record<string, unknown>> = [];
  closedWith?: { code: number; reason?: string };
  private readonly listeners = new Map<string, (data?: unknown, isBinary?: boolean) => void>();
  on(event: string, listener: (data: never, isBinary: never) => void): this {
    this.listeners.set(event, listener as (data?: unknown, isBinary?: boolean) => void);
    return this;
  }
  send(data: string): void {
    this.sent.push(JSON.parse(data) as Record<string, unknown>);
  }
  close(code: number, reason?: string): void {
    this.closedWith = { code, reason };
    this.readyState = 3;
  }
  pings = 0;
  pongs = 0;
  terminated = false;
  /** A live peer answers the server's pings (as every WebSocket client does). */
  answersPings = true;
  ping(): void {
    this.pings++;
    if (this.answersPings) {
      this.emit('pong');
    }
  }
  pong(): void {
    this.pongs++;
  }
  terminate(): void {
    this.terminated = true;
    this.readyState = 3;
  }
  emit(event: 'ping' | 'pong'): void {
    this.listeners.get(event)?.(Buffer.alloc(0));
  }
  frame(event: object): void {
    this.listeners.get('message')?.(Buffer.from(JSON.stringify(event)), false);
  }
}
