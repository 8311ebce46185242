import { SlotQueue } from '@app/common';

/**
 * Bounds the /context builds in flight. Past the bound, work only queues inside the event
 * loop, where it delays every timer, including the deadlines of requests already running:
 * under overload a bundle would then arrive late. A request that cannot start within its
 * wait budget is shed (answered at once as an empty partial bundle) instead.
 */
export class AdmissionGate {
  private readonly slots: SlotQueue;

  constructor(
    maxInFlight: number,
    /** Requests that may wait for a slot; past it one is refused at once. */
    private readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {
    this.slots = new SlotQueue(maxInFlight);
  }

  /** A release function once admitted, or `undefined` when no slot frees up within `waitMs`. */
  acquire(waitMs: number): Promise<(() => void) | undefined> {
    const release = this.slots.tryTake();
    if (release) {
      return Promise.resolve(release);
    }
    if (waitMs <= 0 || this.slots.load.waiting >= this.maxWaiting) {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const leave = this.slots.wait((granted) => {
        clearTimeout(timer);
        resolve(granted);
      });
      const timer = setTimeout(() => {
        if (leave()) {
          resolve(undefined);
        }
      }, waitMs);
    });
  }

  get load(): { inFlight: number; waiting: number } {
    const { inUse, waiting } = this.slots.load;
    return { inFlight: inUse, waiting };
  }
}
