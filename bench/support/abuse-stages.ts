/**
 * Where the live /context calls of a bench:abuse phase spent their time, from the server's
 * own stage timings (`meta.stages`): mean and p99 per stage over every answered call, and the
 * mean per stage over the slowest 5% (what a p99 call waited on). `outside_server` is the
 * client time the server's clock did not see (accept, body read, queueing on the event loop).
 */
import { type Shot } from './load-steps';

const round = (x: number) => Math.round(x * 10) / 10;

function stats(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / Math.max(1, sorted.length);
  const p99 = sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] ?? 0;
  return { mean: round(mean), p99: round(p99) };
}

/** Each shot's stages plus the time outside the server's clock. */
function stagesOf(shot: Shot): Record<string, number> {
  return {
    ...shot.stages,
    outside_server: Math.max(0, shot.clientMs - (shot.serverMs ?? shot.clientMs)),
  };
}

export function stageBreakdown(shots: Shot[]) {
  const answered = shots.filter((s) => s.status === 200 && s.stages);
  const names = [...new Set(answered.flatMap((s) => Object.keys(stagesOf(s))))].sort();
  const slowest = [...answered]
    .sort((a, b) => b.clientMs - a.clientMs)
    .slice(0, Math.max(1, Math.ceil(answered.length * 0.05)));
  const column = (from: Shot[], name: string) => from.map((s) => stagesOf(s)[name] ?? 0);
  return {
    all: Object.fromEntries(names.map((n) => [n, stats(column(answered, n))])),
    slowest_5pct: {
      n: slowest.length,
      client_ms: stats(slowest.map((s) => s.clientMs)).mean,
      mean: Object.fromEntries(names.map((n) => [n, stats(column(slowest, n)).mean])),
    },
  };
}
