import { type LatencySummary, runConcurrent, summarize } from './stats';

/** One mode's figures at one concurrency, over every round. */
export type RoundsResult = LatencySummary & {
  rps_per_round: number[];
  rps_mean: number;
  partial: number;
};

/**
 * Compares modes (servers, or request shapes) under the same load: a warm-up per mode, then
 * `rounds` rounds at each concurrency, the modes' order reversed every other round so a
 * drift in the box's load falls on all of them alike. `request(mode)` sends one request and
 * resolves whether its answer was partial. Results are keyed `<mode>/c<concurrency>`.
 */
export async function interleavedRounds<M extends string>(options: {
  modes: readonly M[];
  levels: readonly number[];
  rounds: number;
  /** Requests per run at concurrency 1; higher levels send four times as many. */
  requests: number;
  request: (mode: M) => Promise<boolean>;
}): Promise<Record<string, RoundsResult>> {
  const { modes, levels, rounds, requests, request } = options;
  const samples: Record<string, { latencies: number[]; rps: number[]; partial: number }> = {};
  const run = async (mode: M, concurrency: number, total: number) => {
    let partial = 0;
    const result = await runConcurrent(total, concurrency, async () => {
      partial += (await request(mode)) ? 1 : 0;
    });
    return { ...result, partial };
  };
  for (const mode of modes) {
    await run(mode, 8, 64); // warm-up: JIT, caches, connections
  }
  for (let round = 0; round < rounds; round++) {
    for (const concurrency of levels) {
      const order = round % 2 === 0 ? modes : [...modes].reverse();
      for (const mode of order) {
        const total = concurrency === 1 ? requests : requests * 4;
        const result = await run(mode, concurrency, total);
        const key = `${mode}/c${concurrency}`;
        samples[key] ??= { latencies: [], rps: [], partial: 0 };
        samples[key].latencies.push(...result.latencies);
        samples[key].rps.push(Math.round((total / result.wallMs) * 10000) / 10);
        samples[key].partial += result.partial;
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
      },
    ]),
  );
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
