import { DependencyError } from '@app/common';

/** The window lookups are counted in. */
const WINDOW_MS = 60_000;

/**
 * The caller spent its Podium lookups for this minute: no request is made (the bundle
 * comes back without live fields), so one tenant's key cannot spend the organisation's
 * Podium quota, shared by every tenant, with made-up contact ids.
 */
export class PodiumLookupBudgetError extends DependencyError {
  constructor(perMinute: number) {
    super(
      'podium_lookup_budget',
      `This caller made ${perMinute} Podium lookups in the last minute; live fields resume shortly.`,
    );
  }
}

/**
 * Podium requests per caller per minute, in fixed one-minute windows. Only requests count:
 * a cached answer costs Podium nothing. One entry per caller seen this window (callers are
 * configured keys' scopes, a bounded set).
 */
export class LookupBudget {
  private readonly spent = new Map<string, { window: number; count: number }>();

  constructor(
    readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes one lookup from `caller`'s budget; `false` when it has none left this minute. */
  take(caller: string): boolean {
    const window = Math.floor(this.now() / WINDOW_MS);
    const entry = this.spent.get(caller);
    if (!entry || entry.window !== window) {
      if (this.spent.size > 10_000) {
        this.spent.clear(); // only after a flood of distinct callers; their windows restart
      }
      this.spent.set(caller, { window, count: 1 });
      return true;
    }
    if (entry.count >= this.perMinute) {
      return false;
    }
    entry.count++;
    return true;
  }
}
