import { SlotQueue } from './slot-queue';

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
 * Paces background work (forgets and ingestions together) while live traffic is present: one
 * unit at a time, and after a unit that took `d` ms the next starts no sooner than
 * `d × (1 / duty − 1)` ms later, so background work runs at most `duty` of the time. A unit
 * waits at most {@link MAX_REST_MS} for its turn (a long ingestion cannot hold a forget for its
 * whole length). Without live traffic nothing waits and units run side by side. The wait is a
 * timer: a paced caller holds its place (its admission slot) and no CPU.
 */
export class BackgroundPacer {
  private readyAt = Number.NEGATIVE_INFINITY;
  /** One unit at a time while live traffic is present (first come, first served). */
  private readonly slot = new SlotQueue(1);

  constructor(
    private readonly live: LiveTraffic = liveTraffic,
    private readonly duty = BACKGROUND_DUTY,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Runs `work` once its turn comes; the time it took sets the next unit's turn. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const release = this.live.present ? await this.turn() : undefined;
    const started = this.now();
    try {
      return await work();
    } finally {
      const ended = this.now();
      const rest = Math.min(MAX_REST_MS, (ended - started) * (1 / this.duty - 1));
      // Before the release: the next unit, handed the slot at once, reads the new pace.
      this.readyAt = Math.max(this.readyAt, ended + rest);
      release?.();
    }
  }

  /** The slot (or none, given up on) once the last unit's rest is over, within MAX_REST_MS. */
  private async turn(): Promise<(() => void) | undefined> {
    const giveUpAt = this.now() + MAX_REST_MS;
    const release =
      this.slot.tryTake() ??
      (await new Promise<(() => void) | undefined>((resolve) => {
        const leave = this.slot.wait((granted) => {
          clearTimeout(timer);
          resolve(granted);
        });
        const timer = setTimeout(() => leave() && resolve(undefined), MAX_REST_MS);
      }));
    const wait = Math.min(giveUpAt, this.readyAt) - this.now();
    if (wait > 0) {
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
    return release;
  }
}

/** This process's background work's one pace: forgets and ingestions share it. */
export const backgroundPacer = new BackgroundPacer();
