import { LRUCache, type Perf } from 'lru-cache';

/**
 * How long a caller refused on `/mcp` stays refused unread. Short: a client that sent one bad
 * request loses a few seconds; a client looping on refusals costs one parsed body per hold.
 */
export const MCP_HOLD_MS = 5000;
/**
 * Callers on hold at once. Past it the least recently held is dropped: an attacker with many
 * addresses cannot grow memory, only free its own oldest addresses sooner.
 */
export const MCP_HOLD_MAX_CALLERS = 10_000;

export interface CallerHoldsOptions {
  holdMs?: number;
  maxCallers?: number;
  /** The clock holds expire by (tests inject one); a monotonic one by default. */
  perf?: Perf;
}

/**
 * Callers (as the rate limiter names them) refused lately, each until its hold expires.
 * Per process: each replica holds the callers it refused.
 */
export class CallerHolds {
  private readonly holds: LRUCache<string, true>;
  readonly holdMs: number;

  constructor(options: CallerHoldsOptions = {}) {
    this.holdMs = options.holdMs ?? MCP_HOLD_MS;
    this.holds = new LRUCache<string, true>({
      max: options.maxCallers ?? MCP_HOLD_MAX_CALLERS,
      ttl: this.holdMs,
      perf: options.perf,
      // The default 1 ms resolution caches "now" behind a timer; an injected clock is read
      // every time, or a test's jump would be missed.
      ttlResolution: options.perf ? 0 : 1,
    });
  }

  /** Holds `caller` for {@link holdMs} from now (a hold already running starts again). */
  hold(caller: string): void {
    this.holds.set(caller, true);
  }

  /** Milliseconds left on `caller`'s hold; 0 when it is not held. */
  remaining(caller: string): number {
    if (!this.holds.has(caller)) {
      return 0; // never held, expired, or dropped past the bound
    }
    return Math.min(this.holdMs, Math.max(0, this.holds.getRemainingTTL(caller)));
  }

  /** Holds kept (expired ones count until touched or evicted); never past the bound. */
  get size(): number {
    return this.holds.size;
  }

  /** Lifts every hold (tests that refuse a caller on purpose and then use it again). */
  clear(): void {
    this.holds.clear();
  }
}
