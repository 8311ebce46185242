/**
 * Replays LoCoMo pools saved by `BENCH_POOLS=pools.jsonl BENCH_SETS=locomo npm run
 * bench:quality` over a grid of evidence options, with no embedding or store. Prints JSON.
 *
 *   node -r @swc-node/register bench/locomo-tune.ts pools.jsonl
 *   TUNE='{"r2":{"o":{"trim":{"above":4,"radius":2,"anchorShare":0.5}}}}'  # extra rows
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
import { bundlesFor, type MemoryPool, MemoryTally } from './support/memory-metrics';
import { printJson } from './support/stats';

function run(
  pools: MemoryPool[],
  maxExcerpts: number,
  options: Partial<EvidenceOptions>,
  finalK?: number,
  tokens = 1500,
) {
  const redactor = new Redactor({});
  const prompt = new PromptService(new TokenCounter(), {});
  const config = { context: { finalK: 5, maxExcerpts } } as AppConfig;
  const deps = { assembler: new EvidenceAssembler(config, redactor, prompt), redactor, prompt };
  const tally = new MemoryTally();
  for (const p of pools) {
    const b = bundlesFor(p, deps, { v: { finalK, options } }, tokens).v;
    tally.add('v', p, b);
  }
  const r = tally.report().v;
  return Object.fromEntries(
    Object.entries(r).map(([kind, m]) => [
      kind,
      `${m.evidence_recall}/${m.every_evidence}/${m.tokens}t/${m.excerpts}x`,
    ]),
  );
}

function main() {
  const pools = readFileSync(process.argv[2], 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MemoryPool);
  const trim = DEFAULT_EVIDENCE_OPTIONS.trim!;
  const grid: Record<string, unknown> = {};
  const spec = JSON.parse(process.env.TUNE ?? '{}') as Record<
    string,
    { max?: number; k?: number; tokens?: number; o: Partial<EvidenceOptions> }
  >;
  const all: Record<
    string,
    { max?: number; k?: number; tokens?: number; o: Partial<EvidenceOptions> }
  > = {
    base: { o: {} },
    k5: { k: 5, o: {} },
    fill0: { o: { fillMargin: 0 } },
    r2: { o: { trim: { ...trim, radius: 2 } } },
    r0: { o: { trim: { ...trim, radius: 0 } } },
    div3: { o: { diversity: 0.3 } },
    max20_fill0: { max: 20, o: { fillMargin: 0 } },
    ...spec,
  };
  for (const [name, v] of Object.entries(all)) {
    grid[name] = run(pools, v.max ?? 12, v.o, v.k, v.tokens);
    process.stderr.write(`${name} ${JSON.stringify(grid[name])}\n`);
  }
  printJson(grid);
}

main();
