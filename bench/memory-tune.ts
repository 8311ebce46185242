/**
 * Replays long-memory pools saved by `BENCH_POOLS=pools.jsonl BENCH_SETS=memory npm run
 * bench:quality`: every variant of bench:quality's memory set, plus a grid over the
 * evidence options (diversity, fill margin, trim radius, most excerpts), with no embedding
 * or store. Prints JSON.
 *
 *   npm run bench:memory-tune -- pools.jsonl
 */
import { readFileSync } from 'node:fs';

import { PromptService, TokenCounter } from '@app/prompt';
import { Redactor } from '@app/redaction';

import { type AppConfig } from '../src/config/app-config';
import { EvidenceAssembler } from '../src/context/evidence/evidence-assembler';
import {
  DEFAULT_EVIDENCE_OPTIONS,
  type EvidenceOptions,
} from '../src/context/evidence/select-evidence';
import {
  bundlesFor,
  MAIN,
  type MemoryPool,
  MemoryTally,
  type Variant,
  VARIANTS,
} from './support/memory-metrics';
import { printJson, summarize } from './support/stats';

function assemblerWith(maxExcerpts: number) {
  const redactor = new Redactor({});
  const prompt = new PromptService(new TokenCounter(), {});
  const config = { context: { finalK: 5, maxExcerpts } } as AppConfig;
  return { assembler: new EvidenceAssembler(config, redactor, prompt), redactor, prompt };
}

function summary(pools: MemoryPool[], variants: Record<string, Variant>, maxExcerpts: number) {
  const deps = assemblerWith(maxExcerpts);
  const tally = new MemoryTally();
  for (const p of pools) {
    Object.entries(bundlesFor(p, deps, variants)).forEach(([name, b]) => tally.add(name, p, b));
  }
  return tally.report();
}

function main() {
  const file = process.argv[2];
  if (!file) {
    throw new Error('usage: memory-tune <pools.jsonl>');
  }
  const pools = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MemoryPool);
  const grid: Record<string, unknown> = {};
  const trim = DEFAULT_EVIDENCE_OPTIONS.trim!;
  const only = process.env.TUNE_GRID ?? 'trim,fill';
  const run = (name: string, maxExcerpts: number, options: Partial<EvidenceOptions>) => {
    const r = summary(pools, { v: { finalK: undefined, options } }, maxExcerpts).v;
    grid[name] = Object.fromEntries(
      Object.entries(r).map(([kind, m]) => [
        kind,
        `${m.evidence_recall} / ${m.every_evidence} / ${m.tokens}t / ${m.excerpts}x`,
      ]),
    );
  };
  const trims = { whole: null, r1: { ...trim, radius: 1 }, r2: { ...trim, radius: 2 } };
  for (const maxExcerpts of [8, 12, 20]) {
    for (const fillMargin of only.includes('fill')
      ? [0, 0.3, 0.5]
      : [DEFAULT_EVIDENCE_OPTIONS.fillMargin]) {
      for (const [t, options] of Object.entries(trims)) {
        run(`max${maxExcerpts}_fill${fillMargin}_${t}`, maxExcerpts, { fillMargin, trim: options });
      }
    }
  }
  // CPU of the assembly itself (select, redact, budget) per pool: main's way against the new.
  const deps = assemblerWith(12);
  const timed = (options: Partial<EvidenceOptions>, finalK: number | undefined) =>
    summarize(
      pools.map((p) => {
        const t0 = performance.now();
        deps.assembler.assemble(
          p.question.question,
          p.pool,
          deps.assembler.limits(finalK),
          1500,
          options,
        );
        return performance.now() - t0;
      }),
    );
  timed({}, undefined); // warm the caches and the JIT
  const assembleMs = {
    main: timed(MAIN, 5),
    new_k5: timed({}, 5),
    new_default: timed({}, undefined),
  };
  printJson({
    assemble_ms: assembleMs,
    pools: pools.length,
    variants: summary(pools, VARIANTS, 12),
    grid_recall_every_tokens: grid,
  });
}

main();
