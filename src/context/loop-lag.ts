import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The sampling timer's own period: the histogram's values include it. */
const RESOLUTION_MS = 10;

/**
 * The event loop's recent delay (p99 over the last second). Timers fire that much late when
 * the main thread is short of CPU (more busy threads than cores: embedding, PGlite, HTTP), so
 * the /context deadline keeps that much more in reserve and still answers on time.
 */
export class LoopLag {
  private readonly histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  private recentP99Ms = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(windowMs = 1000) {
    this.histogram.enable();
    this.timer = setInterval(() => {
      const p99Ms = this.histogram.percentile(99) / 1e6 - RESOLUTION_MS;
      this.recentP99Ms = Number.isFinite(p99Ms) ? Math.max(0, p99Ms) : 0;
      this.histogram.reset();
    }, windowMs);
    this.timer.unref();
  }

  /** Milliseconds a timer set now is likely to fire late (p99 of the last window). */
  get p99Ms(): number {
    return this.recentP99Ms;
  }

  stop(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}
