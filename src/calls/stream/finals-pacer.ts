import {
  FINALS_BURST,
  FLOOD_MEMORY_MS,
  FLOODING_CALLER_BUILDS_PER_SECOND,
  MAX_FINALS_PER_SECOND,
  MAX_PACED_ENTRIES,
} from './call-stream.protocol';

/** A token bucket: `burst` at once, refilled at `perSecond`. */
class Bucket {
  private tokens: number;
  private at: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    now: number,
  ) {
    this.tokens = burst;
    this.at = now;
  }

  /** Whether a token is there now (taking none). */
  has(now: number): boolean {
    this.refill(now);
    return this.tokens >= 1;
  }

  take(): void {
    this.tokens--;
  }

  /** Full again: nothing would be lost by forgetting it. */
  full(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.burst;
  }

  private refill(now: number): void {
    const gained = (Math.max(0, now - this.at) / 1000) * this.perSecond;
    this.tokens = Math.min(this.burst, this.tokens + gained);
    this.at = now;
  }
}

/** One call's finals rate, and when it last ran over it. */
interface CallPace {
  bucket: Bucket;
  floodedAt: number;
}

/**
 * Which finals a call's streams build (`build`) and which only keep their words for the next
 * built one (`keep`). Per call (not per socket, so a reconnect does not refill the burst):
 * {@link FINALS_BURST} at once, then {@link MAX_FINALS_PER_SECOND}; speech ends a turn about
 * once a second, so a voice agent's cadence stays inside it. A call that ran over it in the
 * last {@link FLOOD_MEMORY_MS} (a final it could not have built) is flooding, and all of one caller's flooding calls share
 * {@link FLOODING_CALLER_BUILDS_PER_SECOND} builds: fifty hostile streams of one key are one
 * attacker (the bench's flood was ~20 builds a second between them), while a platform key's
 * many calls at their normal cadence never meet that shared budget.
 */
export class FinalsPacer {
  private readonly calls = new Map<string, CallPace>();
  private readonly flooding = new Map<string, Bucket>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** `build` takes the tokens it needs; `keep` takes none. */
  take(caller: string, call: string): 'build' | 'keep' {
    const now = this.now();
    const pace = this.paceOf(keyOf(caller, call), now);
    if (!pace.bucket.has(now)) {
      pace.floodedAt = now;
      return 'keep';
    }
    if (now - pace.floodedAt < FLOOD_MEMORY_MS) {
      const shared = this.floodingBudget(caller, now);
      if (!shared.has(now)) {
        // Still over what it may build: flooding goes on (its own burst must not refill it).
        pace.floodedAt = now;
        return 'keep';
      }
      shared.take();
    }
    pace.bucket.take();
    return 'build';
  }

  /**
   * Whether a stopped stream's kept words may join the call's memory (and so, past its bounds,
   * the contact's history): always for a call at its cadence; a flooding call's take one of
   * its caller's shared builds, so a flood's words cost what its builds may.
   */
  mayRemember(caller: string, call: string): boolean {
    const now = this.now();
    const pace = this.calls.get(keyOf(caller, call));
    if (!pace || now - pace.floodedAt >= FLOOD_MEMORY_MS) {
      return true;
    }
    const shared = this.floodingBudget(caller, now);
    if (!shared.has(now)) {
      return false;
    }
    shared.take();
    return true;
  }

  /** Calls and callers tracked now (bounded by {@link MAX_PACED_ENTRIES} each). */
  get size(): { calls: number; callers: number } {
    return { calls: this.calls.size, callers: this.flooding.size };
  }

  private paceOf(key: string, now: number): CallPace {
    const known = this.calls.get(key);
    if (known) {
      return known;
    }
    const pace = {
      bucket: new Bucket(FINALS_BURST, MAX_FINALS_PER_SECOND, now),
      floodedAt: -Infinity,
    };
    remember(
      this.calls,
      key,
      pace,
      (p) => p.bucket.full(now) && now - p.floodedAt >= FLOOD_MEMORY_MS,
    );
    return pace;
  }

  private floodingBudget(caller: string, now: number): Bucket {
    const known = this.flooding.get(caller);
    if (known) {
      return known;
    }
    const bucket = new Bucket(1, FLOODING_CALLER_BUILDS_PER_SECOND, now);
    remember(this.flooding, caller, bucket, (b) => b.full(now));
    return bucket;
  }
}

const keyOf = (caller: string, call: string) => `${caller}\u0000${call}`;

/**
 * Adds an entry to a bounded map. Full, it first drops the entries `idle` says lose nothing,
 * then the oldest: an attacker naming endless call ids costs a bounded map, at worst a new
 * burst for a call it pushed out.
 */
function remember<V>(map: Map<string, V>, key: string, value: V, idle: (v: V) => boolean): void {
  if (map.size >= MAX_PACED_ENTRIES) {
    for (const [k, v] of map) {
      if (idle(v)) {
        map.delete(k);
      }
    }
    // Still full: the oldest tenth goes, so the next insertions do not scan again.
    for (const k of map.keys()) {
      if (map.size < MAX_PACED_ENTRIES * 0.9) {
        break;
      }
      map.delete(k);
    }
  }
  map.set(key, value);
}
