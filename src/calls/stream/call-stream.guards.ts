import { DomainError } from '@app/common';

import {
  MAX_CALLER_FINALS_IN_FLIGHT,
  MAX_FINALS_IN_FLIGHT,
  MAX_FRAMES_PER_SECOND,
  STREAM_PING_MS,
} from './call-stream.protocol';

/** A final while the stream's, or its caller's, finals in flight are at their bound. */
export class StreamBusyError extends DomainError {
  constructor(whose: 'stream' | 'caller') {
    super(
      'stream_busy',
      whose === 'stream'
        ? `This stream already has ${MAX_FINALS_IN_FLIGHT} finals being answered; send the next once one is.`
        : `This caller's streams already have ${MAX_CALLER_FINALS_IN_FLIGHT} finals being answered; retry shortly.`,
      429,
    );
  }
}

/** Finals in flight per caller, across all its streams (bounded by {@link MAX_CALLER_FINALS_IN_FLIGHT}). */
export class CallerFinals {
  private readonly held = new Map<string, number>();

  constructor(private readonly max = MAX_CALLER_FINALS_IN_FLIGHT) {}

  take(caller: string): boolean {
    const held = this.held.get(caller) ?? 0;
    if (held >= this.max) {
      return false;
    }
    this.held.set(caller, held + 1);
    return true;
  }

  release(caller: string): void {
    const held = (this.held.get(caller) ?? 0) - 1;
    if (held > 0) {
      this.held.set(caller, held);
    } else {
      this.held.delete(caller);
    }
  }
}

/**
 * What one client may ask of its stream: frames of any kind (messages and pings alike, a ping
 * costs the server a pong) within {@link MAX_FRAMES_PER_SECOND}, and finals in flight within
 * {@link MAX_FINALS_IN_FLIGHT} per stream and {@link MAX_CALLER_FINALS_IN_FLIGHT} per caller:
 * each is a whole `/context` build, and streams sending them faster than they are served would
 * otherwise take every admission slot the other tenants' calls need.
 */
export class StreamBudget {
  private window = { start: 0, count: 0 };
  private finals = 0;

  constructor(
    private readonly caller: string,
    private readonly callers: CallerFinals,
  ) {}

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

  /** Takes a final's slot, the stream's and its caller's; whose bound refused it, else none. */
  takeFinal(): 'stream' | 'caller' | undefined {
    if (this.finals >= MAX_FINALS_IN_FLIGHT) {
      return 'stream';
    }
    if (!this.callers.take(this.caller)) {
      return 'caller';
    }
    this.finals++;
    return undefined;
  }

  releaseFinal(): void {
    if (this.finals > 0) {
      this.finals--;
      this.callers.release(this.caller);
    }
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
