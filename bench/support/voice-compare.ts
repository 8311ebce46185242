import { type LatencySummary } from './stats';

/**
 * bench:voice's modes: finals only, interims too (HTTP), interims too on one WebSocket per call,
 * interims too on the baseline checkout.
 */
export type Mode = 'final_only' | 'speculative' | 'stream' | 'speculative_baseline';

/** What bench:voice measures for one mode at one concurrency level. */
export interface VoiceLevel {
  latency_ms: LatencySummary;
  speculative_latency_ms: LatencySummary | null;
  served_from_speculation: number;
  /** Stream mode: share of finals answered `confirmed` (the pushed excerpts held already). */
  confirmed?: number;
  late: number;
  partial: number;
  hit_rate: number;
  cpu_ms_per_turn: number;
}

/**
 * One level's speculative modes beside its final-only run (results keyed `<mode>_c<level>`):
 * end-of-turn → bundle for the turns served from speculation and for all, the share served,
 * the hit rate against final-only's, late and partial bundles, and CPU per turn against
 * final-only's.
 */
export function compareModes(
  results: Record<string, VoiceLevel>,
  modes: readonly Mode[],
  c: number,
) {
  const base = results[`final_only_c${c}`];
  const side = (mode: Mode) => {
    const r = results[`${mode}_c${c}`];
    return {
      served_p50_ms: r.speculative_latency_ms?.p50 ?? null,
      served_p99_ms: r.speculative_latency_ms?.p99 ?? null,
      all_p50_ms: r.latency_ms.p50,
      all_p99_ms: r.latency_ms.p99,
      served_from_speculation: r.served_from_speculation,
      ...(r.confirmed === undefined ? {} : { confirmed: r.confirmed }),
      hit_rate: r.hit_rate,
      hit_rate_final_only: base.hit_rate,
      late: r.late,
      partial: r.partial,
      cpu_ms_per_turn: r.cpu_ms_per_turn,
      cpu_vs_final_only: Number((r.cpu_ms_per_turn / base.cpu_ms_per_turn).toFixed(2)),
    };
  };
  return Object.fromEntries(modes.filter((m) => m !== 'final_only').map((m) => [m, side(m)]));
}
