/**
 * Live traffic counts as present for this long after its last call ended: a caller at c=1
 * leaves the server idle for a millisecond between calls, which is not a pause to fill.
 */
export const LIVE_QUIET_MS = 2000;
/**
 * The share of the wall time a kind of background work (forgets, ingests) may run while live
 * traffic is present. Measured (docs/benchmarks.md, bench:abuse): 50 clients looping forgets
 * and ingests took about half of a 2-core box at full speed and doubled the live p50.
 */
export const BACKGROUND_DUTY = 0.25;
/** The longest pause between two units of background work, whatever the last one cost. */
export const MAX_REST_MS = 2000;

/**
 * Live calls (`/context` builds) in flight in this process, and when the last one ended, so
 * background work can tell whether it competes with them for the cores.
 */
export class LiveTraffic {
  private inFlight = 0;
  private lastLeftAt = Number.NEGATIVE_INFINITY;
  private entered = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Marks one live call in flight until the returned function is called (once). */
  enter(): () => void {
    this.inFlight++;
    this.entered++;
    let left = false;
    return () => {
      if (!left) {
        left = true;
        this.inFlight--;
        this.lastLeftAt = this.now();
      }
    };
  }

  /** Whether a live call is in flight or ended within {@link LIVE_QUIET_MS}. */
  get present(): boolean {
    return this.inFlight > 0 || this.now() - this.lastLeftAt < LIVE_QUIET_MS;
  }

  /** Live calls entered since start (tests, diagnostics). */
  get calls(): number {
    return this.entered;
  }
}

/** This process's live traffic: `/context` marks it, background work reads it. */
export const liveTraffic = new LiveTraffic();

/**
 * Paces one kind of background work while live traffic is present: after a unit that took
 * `d` ms, the next unit of the kind starts no sooner than `d × (1 / duty − 1)` ms later (at
 * most {@link MAX_REST_MS}), so the kind runs at most `duty` of the time (per unit running at
 * once). Without live traffic nothing waits. The wait is a timer: a paced caller holds its
 * place (its admission slot) and no CPU. Costly units rest longer, cheap ones barely.
 */
export class BackgroundPacer {
  private readyAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly live: LiveTraffic = liveTraffic,
    private readonly duty = BACKGROUND_DUTY,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Runs `work` once its turn comes; the time it took sets the next unit's turn. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const wait = this.live.present ? this.readyAt - this.now() : 0;
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const started = this.now();
    try {
      return await work();
    } finally {
      const ended = this.now();
      const rest = Math.min(MAX_REST_MS, (ended - started) * (1 / this.duty - 1));
      this.readyAt = Math.max(this.readyAt, ended + rest);
    }
  }
}
