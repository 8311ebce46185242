import { type LatencySummary, runConcurrent, summarize } from './stats';

/** One mode's figures at one concurrency, over every round. */
export type RoundsResult = LatencySummary & {
  rps_per_round: number[];
  rps_mean: number;
  partial: number;
  /** What `meter` measured (e.g. server CPU ms), per request over every round. */
  cost_per_request?: number;
  /** The same, round by round. */
  cost_per_round?: number[];
};

/**
 * Measures one run besides its wall time: called before the run, it answers a function that,
 * called after it, answers the run's cost (e.g. CPU ms of the server that served it).
 */
export type RunMeter<M extends string> = (mode: M) => Promise<() => Promise<number>>;

/**
 * Compares modes (servers, or request shapes) under the same load: a warm-up per mode, then
 * at each concurrency `rounds` rounds that run every mode once, in {@link roundOrder}, so a
 * drift in the box's load falls on all of them alike and no mode always runs in the same
 * place. Concurrency levels run one after the other (a light run never follows a heavy one
 * of its own server, whose garbage and deferred work it would inherit, more often than
 * another mode's does). `request(mode)` sends one request and resolves whether its answer was
 * partial. Results are keyed `<mode>/c<concurrency>`.
 */
export async function interleavedRounds<M extends string>(options: {
  modes: readonly M[];
  levels: readonly number[];
  rounds: number;
  /** Requests per run at concurrency 1; higher levels send four times as many. */
  requests: number;
  request: (mode: M) => Promise<boolean>;
  meter?: RunMeter<M>;
}): Promise<Record<string, RoundsResult>> {
  const { modes, levels, rounds, requests, request, meter } = options;
  const samples: Record<
    string,
    {
      latencies: number[];
      rps: number[];
      partial: number;
      cost: number;
      requests: number;
      costs: number[];
    }
  > = {};
  const run = async (mode: M, concurrency: number, total: number) => {
    let partial = 0;
    const stop = await meter?.(mode);
    const result = await runConcurrent(total, concurrency, async () => {
      partial += (await request(mode)) ? 1 : 0;
    });
    return { ...result, partial, cost: (await stop?.()) ?? 0 };
  };
  for (const mode of modes) {
    await run(mode, 8, 64); // warm-up: JIT, caches, connections
  }
  for (const concurrency of levels) {
    for (let round = 0; round < rounds; round++) {
      for (const mode of roundOrder(modes, round)) {
        const total = concurrency === 1 ? requests : requests * 4;
        const result = await run(mode, concurrency, total);
        const key = `${mode}/c${concurrency}`;
        samples[key] ??= { latencies: [], rps: [], partial: 0, cost: 0, requests: 0, costs: [] };
        samples[key].latencies.push(...result.latencies);
        samples[key].rps.push(Math.round((total / result.wallMs) * 10000) / 10);
        samples[key].partial += result.partial;
        samples[key].cost += result.cost;
        samples[key].costs.push(result.cost / total);
        samples[key].requests += total;
      }
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([key, s]) => [
      key,
      {
        ...summarize(s.latencies),
        rps_per_round: s.rps,
        rps_mean: Math.round((s.rps.reduce((a, b) => a + b, 0) / s.rps.length) * 10) / 10,
        partial: s.partial,
        ...(meter
          ? {
              cost_per_request: Math.round((s.cost / s.requests) * 1000) / 1000,
              cost_per_round: s.costs.map((c) => Math.round(c * 1000) / 1000),
            }
          : {}),
      },
    ]),
  );
}

/**
 * The modes' order in round `round`: rotated one place a round, and reversed on every other
 * pass through the rotations, so each mode runs in each place and after each of its
 * neighbours about equally often (two modes: AB BA BA AB, …).
 */
export function roundOrder<M>(modes: readonly M[], round: number): M[] {
  const shift = round % modes.length;
  const rotated = [...modes.slice(shift), ...modes.slice(0, shift)];
  return Math.floor(round / modes.length) % 2 ? rotated.reverse() : rotated;
}

/** Mean throughput of mode `a` over mode `b` at each level, e.g. `{ c1: 0.98, c8: 1.01 }`. */
export function throughputRatio(
  results: Record<string, RoundsResult>,
  a: string,
  b: string,
  levels: readonly number[],
): Record<string, number> {
  return Object.fromEntries(
    levels.map((c) => [
      `c${c}`,
      Math.round((results[`${a}/c${c}`].rps_mean / results[`${b}/c${c}`].rps_mean) * 1000) / 1000,
    ]),
  );
}

/**
 * Mode `a` over mode `b` at each level, round by round: the two ran back to back in each
 * round, so a drift in the box's load cancels in each round's ratio, and the median of them
 * is not moved by one disturbed round as the ratio of means is. Also their range, and `a`'s
 * cost per request over `b`'s when a meter measured one (CPU time: what a loaded box inflates
 * least), overall and as the median of the rounds' own cost ratios.
 */
export function pairedRatios(
  results: Record<string, RoundsResult>,
  a: string,
  b: string,
  levels: readonly number[],
): Record<
  string,
  { median: number; min: number; max: number; cost?: number; cost_median?: number }
> {
  const round3 = (x: number) => Math.round(x * 1000) / 1000;
  const medianOf = (values: number[]) => {
    const sorted = [...values].sort((p, q) => p - q);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  };
  return Object.fromEntries(
    levels.map((c) => {
      const [x, y] = [results[`${a}/c${c}`], results[`${b}/c${c}`]];
      const ratios = x.rps_per_round.map((rps, i) => rps / y.rps_per_round[i]);
      const [xc, yc] = [x.cost_per_round, y.cost_per_round];
      const cost =
        x.cost_per_request !== undefined && y.cost_per_request && xc && yc
          ? {
              cost: round3(x.cost_per_request / y.cost_per_request),
              cost_median: round3(medianOf(xc.map((v, i) => v / yc[i]))),
            }
          : {};
      return [
        `c${c}`,
        {
          median: round3(medianOf(ratios)),
          min: round3(Math.min(...ratios)),
          max: round3(Math.max(...ratios)),
          ...cost,
        },
      ];
    }),
  );
}
