import { DomainError } from '@app/common';
import { normalizeIp } from '@nestjs/throttler';

/**
 * Readiness answers per client address per second. A kubelet or a load balancer asks a few
 * times a second at most; a flood from one address (issue 37: 32 clients, ~1,100 probes a
 * second, the live `/context` p99 at 2.4× its quiet value) is refused past it.
 */
export const READY_PROBES_PER_SECOND = 60;
/**
 * A refused probe is answered after this long: refused at once, a client looping on the
 * answer comes straight back and the flood costs as much as before. Held, one client asks at
 * most a few times a second; the hold is a timer, no work.
 */
export const REFUSAL_HOLD_MS = 500;

/** Too many readiness probes from one address this second (429). */
export class ProbeRateLimitedError extends DomainError {
  constructor() {
    super(
      'probe_rate_limited',
      `More than ${READY_PROBES_PER_SECOND} readiness probes a second from this address.`,
      429,
      { retry_after_s: 1 },
    );
  }
}

/**
 * Per-address counts in one-second windows. The map is cleared at each new window, so it holds
 * at most the addresses seen in one second, however many there are over time.
 */
export class ProbeBudget {
  private windowStart = Number.NEGATIVE_INFINITY;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly perSecond = READY_PROBES_PER_SECOND,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Whether `address` may have another answer this second (counting this one). An IPv6
   * address counts by its /64, as the rate limiter counts it: one host holds a whole /64 and
   * could otherwise take a fresh share with each source address.
   */
  take(address: string): boolean {
    const key = normalizeIp(address);
    const at = this.now();
    if (at - this.windowStart >= 1000) {
      this.windowStart = at;
      this.counts.clear();
    }
    const used = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, used);
    return used <= this.perSecond;
  }

  /** Addresses counted in the current window (tests). */
  get size(): number {
    return this.counts.size;
  }
}
