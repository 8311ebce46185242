/**
 * Redaction's CPU per text, this checkout against BENCH_BASELINE_ROOT (another checkout with
 * its own node_modules), in one process: each side's `Redactor` loaded from its own sources,
 * run in interleaved rounds over the same SGD texts (single turns, as call memory redacts
 * them, and ~5-turn windows, as excerpts leave), CPU time per text by process.cpuUsage.
 *
 *   BENCH_BASELINE_ROOT=/tmp/wt-49630dd npm run bench:redact-ab   # BENCH_ROUNDS (12)
 * BENCH_CURRENT_ROOT: another checkout as "current" (a clean worktree).
 */
import { join } from 'node:path';

import { roundOrder } from './support/interleaved-rounds';
import { loadSgdConversations } from './support/sgd';
import { printJson } from './support/stats';

type Redact = { redact(text: string): { text: string } };

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);

function redactorAt(root: string): Redact {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a module of another checkout, by path
  const { Redactor } = require(join(root, 'libs/redaction/src/redactor')) as {
    Redactor: new (options: object) => Redact;
  };
  return new Redactor({});
}

function main() {
  const baseline = process.env.BENCH_BASELINE_ROOT;
  if (!baseline) {
    throw new Error('BENCH_BASELINE_ROOT: a checkout of the baseline with its own node_modules');
  }
  const sides = {
    current: redactorAt(process.env.BENCH_CURRENT_ROOT ?? join(__dirname, '..')),
    baseline: redactorAt(baseline),
  };
  const conversations = loadSgdConversations(200);
  const turns = conversations.flatMap((c) => c.turns.map((t) => `${t.role}: ${t.text.trim()}`));
  const windows = conversations.flatMap((c) =>
    Array.from({ length: Math.floor(c.turns.length / 5) }, (_, i) =>
      c.turns
        .slice(i * 5, i * 5 + 5)
        .map((t) => `${t.role}: ${t.text.trim()}`)
        .join('\n'),
    ),
  );
  const shapes = { turn: turns, window: windows };
  const perText: Record<string, number[]> = {};
  for (let round = -2; round < ROUNDS; round++) {
    for (const side of roundOrder(Object.keys(sides) as (keyof typeof sides)[], round + 2)) {
      for (const [shape, texts] of Object.entries(shapes)) {
        const t0 = process.cpuUsage();
        for (const text of texts) {
          sides[side].redact(text);
        }
        const used = process.cpuUsage(t0);
        if (round >= 0) {
          // Rounds -2 and -1 warm the JIT up and are not counted.
          (perText[`${side}/${shape}`] ??= []).push((used.user + used.system) / texts.length);
        }
      }
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const us = (key: string) => Math.round(median(perText[key]) * 100) / 100;
  printJson({
    bench: 'redact-ab',
    baseline,
    rounds: ROUNDS,
    texts: { turn: turns.length, window: windows.length },
    cpu_us_per_text_median: Object.fromEntries(Object.keys(perText).map((k) => [k, us(k)])),
    current_over_baseline: Object.fromEntries(
      Object.keys(shapes).map((s) => [
        s,
        Math.round((us(`current/${s}`) / us(`baseline/${s}`)) * 1000) / 1000,
      ]),
    ),
  });
}

main();
