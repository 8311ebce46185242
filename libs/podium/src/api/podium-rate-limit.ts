import { sleep } from '@app/common';

import { PodiumRateLimitedError } from './podium-api.errors';

/**
 * Podium's 429s for this process: until the wait it asked for is over, a call either waits
 * (when that fits `maxRetryWaitMs`) or fails fast without a request, so a rate-limited
 * Podium is not hammered. A wait cut short by the caller's deadline is still Podium's rate
 * limit, not a failure, so it never counts towards the breaker.
 */
export class PodiumRateLimit {
  /** Podium's 429 asked us not to call before this time. */
  private notBefore = 0;

  constructor(
    private readonly maxRetryWaitMs: number,
    private readonly now: () => number,
  ) {}

  /** True while an earlier 429's wait is not over. */
  get active(): boolean {
    return this.now() < this.notBefore;
  }

  /** Records a 429's wait; true when a retry after it fits the retry budget. */
  note(waitMs: number): boolean {
    this.notBefore = Math.max(this.notBefore, this.now() + waitMs);
    return waitMs <= this.maxRetryWaitMs;
  }

  /** Honours an earlier 429: waits when that fits the retry budget, else fails fast. */
  async waitOut(signal?: AbortSignal): Promise<void> {
    const waitMs = this.notBefore - this.now();
    if (waitMs <= 0) {
      return;
    }
    if (waitMs > this.maxRetryWaitMs) {
      throw new PodiumRateLimitedError();
    }
    await this.backOff(waitMs, signal);
  }

  /** A 429 wait; cut short by the deadline it is still Podium's rate limit, not a failure. */
  async backOff(waitMs: number, signal?: AbortSignal): Promise<void> {
    try {
      await sleep(waitMs, signal);
    } catch {
      throw new PodiumRateLimitedError();
    }
  }
}
