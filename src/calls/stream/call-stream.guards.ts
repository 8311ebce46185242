import { DomainError, SlotQueue } from '@app/common';

import {
  FINALS_BURST,
  MAX_CALLER_FINALS_IN_FLIGHT,
  MAX_FINALS_IN_FLIGHT,
  MAX_FINALS_PER_SECOND,
  MAX_FRAMES_PER_SECOND,
  STREAM_PING_MS,
} from './call-stream.protocol';

/** A final while {@link MAX_FINALS_IN_FLIGHT} of the stream's finals are being answered. */
export class StreamBusyError extends DomainError {
  constructor() {
    super(
      'stream_busy',
      `This stream already has ${MAX_FINALS_IN_FLIGHT} finals being answered; no bundle was built, its words ride with the next final.`,
      429,
    );
  }
}

/** A final over its call's rate (FinalsPacer): kept, not built. */
export class StreamFinalsRateError extends DomainError {
  constructor() {
    super(
      'stream_finals_rate_limited',
      `This call sends finals faster than ${MAX_FINALS_PER_SECOND} a second (after ${FINALS_BURST} at once; less while it keeps doing so); no bundle was built, its words ride with the next final.`,
      429,
    );
  }
}

/**
 * Finals being built per caller, across all its streams: past
 * {@link MAX_CALLER_FINALS_IN_FLIGHT} the next waits its turn (FIFO), never refused: many calls
 * of one platform key may end a turn at once, and a wait counts against the final's deadline
 * (a final that waited too long is shed by `/context`'s admission, at no cost).
 */
export class CallerFinals {
  private readonly queues = new Map<string, SlotQueue>();

  constructor(private readonly max = MAX_CALLER_FINALS_IN_FLIGHT) {}

  /** A release function once the caller has a free slot. */
  take(caller: string): Promise<() => void> {
    let queue = this.queues.get(caller);
    if (!queue) {
      queue = new SlotQueue(this.max);
      this.queues.set(caller, queue);
    }
    const slots = queue;
    const granted = (release: () => void) => () => {
      release();
      const { inUse, waiting } = slots.load;
      if (inUse === 0 && waiting === 0 && this.queues.get(caller) === slots) {
        this.queues.delete(caller);
      }
    };
    const release = slots.tryTake();
    return release
      ? Promise.resolve(granted(release))
      : new Promise((resolve) => slots.wait((next) => resolve(granted(next))));
  }
}

/**
 * What one client may ask of its stream: frames of any kind (messages and pings alike, a ping
 * costs the server a pong) within {@link MAX_FRAMES_PER_SECOND}, and finals in flight (building
 * or waiting for their caller's turn) within {@link MAX_FINALS_IN_FLIGHT}: each is a whole
 * `/context` build, and a stream sending them faster than they are served would otherwise
 * queue work without end. The finals rate is the call's (FinalsPacer).
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

  /** Whether another final may be built now ({@link MAX_FINALS_IN_FLIGHT}). */
  get finalsFull(): boolean {
    return this.finals >= MAX_FINALS_IN_FLIGHT;
  }

  takeFinal(): void {
    this.finals++;
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
