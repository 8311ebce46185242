/**
 * One probe result shared for `ttlMs`: callers in that window (and those arriving while it
 * runs) get the same answer instead of each paying the database round trips. `/health/ready`
 * is public and unthrottled, so without this a flood of probes is a flood of queries.
 */
export class CachedCheck<T> {
  private last?: { at: number; value: Promise<T> };

  constructor(
    private readonly probe: () => Promise<T>,
    private readonly ttlMs: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(): Promise<T> {
    const at = this.now();
    if (!this.last || at - this.last.at >= this.ttlMs) {
      // Stamped when it starts, so a slow probe is not re-run by every caller meanwhile.
      this.last = { at, value: this.probe() };
    }
    return this.last.value;
  }
}
