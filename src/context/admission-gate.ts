/**
 * Bounds the /context builds in flight. Past the bound, work only queues inside the event
 * loop, where it delays every timer, including the deadlines of requests already running:
 * under overload a bundle would then arrive late. A request that cannot start within its
 * wait budget is shed (answered at once as an empty partial bundle) instead.
 */
export class AdmissionGate {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly maxInFlight: number,
    /** Requests that may wait for a slot; past it one is refused at once. */
    private readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {}

  /** A release function once admitted, or `undefined` when no slot frees up within `waitMs`. */
  acquire(waitMs: number): Promise<(() => void) | undefined> {
    if (this.inFlight < this.maxInFlight) {
      this.inFlight++;
      return Promise.resolve(this.releaser());
    }
    if (waitMs <= 0 || this.waiting.length >= this.maxWaiting) {
      return Promise.resolve(undefined);
    }
    return new Promise((resolve) => {
      const admit = () => {
        clearTimeout(timer);
        this.inFlight++;
        resolve(this.releaser());
      };
      const timer = setTimeout(() => {
        const i = this.waiting.indexOf(admit);
        if (i >= 0) {
          this.waiting.splice(i, 1);
        }
        resolve(undefined);
      }, waitMs);
      this.waiting.push(admit);
    });
  }

  get load(): { inFlight: number; waiting: number } {
    return { inFlight: this.inFlight, waiting: this.waiting.length };
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) {
        return;
      }
      released = true;
      this.inFlight--;
      this.waiting.shift()?.();
    };
  }
}
