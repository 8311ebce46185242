import { DomainError } from '@app/common';

import {
  MAX_FINALS_IN_FLIGHT,
  MAX_FRAMES_PER_SECOND,
  STREAM_PING_MS,
} from './call-stream.protocol';

/** A final while {@link MAX_FINALS_IN_FLIGHT} of the stream's finals are still being built. */
export class StreamBusyError extends DomainError {
  constructor() {
    super(
      'stream_busy',
      `This stream already has ${MAX_FINALS_IN_FLIGHT} finals being answered; send the next once one is.`,
      429,
    );
  }
}

/**
 * What one client may ask of its stream: frames of any kind (messages and pings alike, a ping
 * costs the server a pong) within {@link MAX_FRAMES_PER_SECOND}, and finals in flight within
 * {@link MAX_FINALS_IN_FLIGHT}: each is a whole `/context` build, and a stream sending them
 * faster than they are served would otherwise take every slot the other tenants' calls need.
 */
export class StreamBudget {
  private window = { start: 0, count: 0 };
  private finals = 0;

  /** Counts one frame; false once the second's budget is spent. */
  frame(now = Date.now()): boolean {
    if (now - this.window.start >= 1000) {
      this.window = { start: now, count: 0 };
    }
    return ++this.window.count <= MAX_FRAMES_PER_SECOND;
  }

  get finalsInFlight(): number {
    return this.finals;
  }

  /** Takes a final's slot; false (nothing taken) when all are held. */
  takeFinal(): boolean {
    if (this.finals >= MAX_FINALS_IN_FLIGHT) {
      return false;
    }
    this.finals++;
    return true;
  }

  releaseFinal(): void {
    this.finals = Math.max(0, this.finals - 1);
  }
}

/**
 * Keepalive: a ping every {@link STREAM_PING_MS}; a peer that has not answered the previous
 * one (a dead network path, or a client that stopped reading) is declared dead. Any frame
 * from the client counts as an answer.
 */
export class Heartbeat {
  private timer?: NodeJS.Timeout;
  private answered = true;

  constructor(
    private readonly ping: () => void,
    private readonly dead: () => void,
    private readonly intervalMs = STREAM_PING_MS,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.beat(), this.intervalMs);
    this.timer.unref();
  }

  alive(): void {
    this.answered = true;
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private beat(): void {
    if (!this.answered) {
      this.stop();
      return this.dead();
    }
    this.answered = false;
    this.ping();
  }
}
