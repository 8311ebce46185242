/**
 * Replays LoCoMo pools saved by `BENCH_POOLS=pools.jsonl BENCH_SETS=locomo npm run
 * bench:quality` over a grid of evidence options, with no embedding or store. Prints JSON.
 *
 *   node -r @swc-node/register bench/locomo-tune.ts pools.jsonl
 *   TUNE='{"r2":{"o":{"trim":{"above":4,"radius":2,"anchorShare":0.5}}}}'  # extra rows
 *   TUNE='{"norecency":{"o":{},"f":{"recencyWeight":0}}}'  # the pool rescored by fusion
 *
 * Every row is also tallied per half of the contacts (`half_a`: the first three files), to
 * choose a setting on one half and check it on the other.
 *
 * `--live`: the retrieval itself (`poolK` too) on a fresh in-memory store, ingesting LoCoMo
 * once (window vectors cached in bench/.cache) and running every TUNE row (plus `base`)
 * through hybrid pool → rerank → assembly; each row also per half (`@a`, `@b`) and its
 * pool's ceiling (`:pool`, every window whole).
 *
 *   TUNE='{"k30":{"poolK":30}}' node -r @swc-node/register bench/locomo-tune.ts --live
 *
 * `--misses pools.jsonl`: where the default bundle's missed evidence turns are (trimmed, in
 * the pool unchosen, not in the pool) and how far from a returned turn. `--legs pools.jsonl`:
 * the evidence other first-stage legs would hold beside the pool's (see `probeLegs`).
 * `--sessions pools.jsonl`: pool depth, session legs and priors, choosers and dates in the
 * question, each as a bundle and its pool's ceiling, in process (see `probeSessions`).
 * `--pool-cost`: the hybrid search statement's time at each depth (`DEPTHS`, default
 * 20,30,40,60) over the LoCoMo contacts, interleaved, on PGlite (or `DATABASE_URL`).
 * `--dated-cost`: the first stage of the questions that name a date with the date leg and
 * without, interleaved, and the parse every question pays (see `datedCost`).
 */
import { readFileSync } from 'node:fs';

import { PromptService, TokenCounter } from '@app/prompt';
import { Redactor } from '@app/redaction';
import { type FusionOptions, fusionScores } from '@app/rerank';

import { type AppConfig } from '../src/config/app-config';
import { EvidenceAssembler } from '../src/context/evidence/evidence-assembler';
import {
  DEFAULT_EVIDENCE_OPTIONS,
  type EvidenceOptions,
} from '../src/context/evidence/select-evidence';
import { benchContext } from './support/app-context';
import { loadLocomo } from './support/locomo';
import { datedCost } from './support/locomo-dated-cost';
import { probeLegs } from './support/locomo-legs';
import { type LiveVariant, locomoLive } from './support/locomo-live';
import { MissTally } from './support/locomo-misses';
import { poolCost } from './support/locomo-pool-cost';
import { probeSessions } from './support/locomo-sessions';
import { bundlesFor, type MemoryPool, MemoryTally } from './support/memory-metrics';
import { printJson } from './support/stats';

/** LoCoMo contacts sort as `locomo-conv-<n>`: the first three files are half a. */
const HALF_B = 'locomo-conv-42';

function deps(maxExcerpts = 12) {
  const redactor = new Redactor({});
  const prompt = new PromptService(new TokenCounter(), {});
  const config = { context: { finalK: 5, maxExcerpts } } as AppConfig;
  return { assembler: new EvidenceAssembler(config, redactor, prompt), redactor, prompt };
}

/** The default bundle of every pool, and where each evidence turn it missed is. */
function misses(pools: MemoryPool[]) {
  const d = deps();
  const tally = new MissTally(loadLocomo(), d.redactor);
  for (const p of pools) {
    tally.add(p, bundlesFor(p, d, { v: { finalK: undefined, options: {} } }).v);
  }
  return tally.result();
}

/** One replayed setting: excerpt cap, `final_k`, budget, evidence and fusion overrides. */
interface Row {
  max?: number;
  k?: number;
  tokens?: number;
  o: Partial<EvidenceOptions>;
  /** Fusion weights to rescore the saved pool with (the dump holds every input fusion reads). */
  f?: Partial<FusionOptions>;
}

/** The pool scored again by fusion, `f` over its defaults (how `/context` would rank it). */
function rescored(p: MemoryPool, f: Partial<FusionOptions>): MemoryPool {
  const scores = fusionScores(
    p.question.question,
    p.pool.map((c) => c.candidate),
    f,
  );
  return { ...p, pool: p.pool.map((c, i) => ({ ...c, score: scores[i] })) };
}

function run(pools: MemoryPool[], row: Row) {
  const { max = 12, k: finalK, tokens = 1500, o: options, f } = row;
  const assembly = deps(max);
  const tally = new MemoryTally();
  const halves = new MemoryTally();
  for (const saved of pools) {
    const p = f ? rescored(saved, f) : saved;
    const b = bundlesFor(p, assembly, { v: { finalK, options } }, tokens).v;
    tally.add('v', p, b);
    // Per half of the contacts (`half_a`: the first three files), to tune on one, check on the other.
    const contact = p.pool[0]?.candidate.payload.contact_uid ?? '';
    halves.add('v', { ...p, question: { kind: contact < HALF_B ? 'half_a' : 'half_b' } }, b);
  }
  const { half_a, half_b } = halves.report().v;
  const r = { ...tally.report().v, half_a, half_b };
  return Object.fromEntries(
    Object.entries(r).map(([kind, m]) => [
      kind,
      `${m.evidence_recall}/${m.every_evidence}/${m.tokens}t/${m.excerpts}x`,
    ]),
  );
}

async function live() {
  const spec = JSON.parse(process.env.TUNE ?? '{}') as Record<string, LiveVariant>;
  const app = await benchContext({ DATABASE_URL: '', EMBEDDING_WORKERS: '2' });
  try {
    const out = await locomoLive(app, { base: {}, ...spec }, (m) => process.stderr.write(`${m}\n`));
    const row = (
      r: Record<
        string,
        { evidence_recall: number; every_evidence: number; tokens: number; excerpts: number }
      >,
    ) =>
      [
        `all ${r.all.evidence_recall}/${r.all.every_evidence}`,
        ...Object.keys(LOCOMO_KINDS).map((k) =>
          r[k] ? `${LOCOMO_KINDS[k]} ${r[k].evidence_recall}` : '',
        ),
        `${r.all.tokens}t ${r.all.excerpts}x`,
      ].join('  ');
    for (const [name, r] of Object.entries(out.variants)) {
      process.stderr.write(`${name.padEnd(22)} ${row(r)}\n`);
    }
    printJson(out);
  } finally {
    await app.close();
  }
}

const LOCOMO_KINDS: Record<string, string> = {
  multi_hop: 'mh',
  temporal: 'tmp',
  open_domain: 'od',
  single_hop: 'sh',
};

function main() {
  if (process.argv[2] === '--pool-cost' || process.argv[2] === '--dated-cost') {
    const depths = (process.env.DEPTHS ?? '20,30,40,60').split(',').map(Number);
    const log = (m: string) => process.stderr.write(`${m}\n`);
    benchContext({ DATABASE_URL: process.env.DATABASE_URL ?? '', EMBEDDING_WORKERS: '1' })
      .then(async (app) => {
        try {
          printJson(
            process.argv[2] === '--dated-cost'
              ? await datedCost(app, Number(process.env.ROUNDS ?? 3), log)
              : await poolCost(app, depths, 2, log),
          );
        } finally {
          await app.close();
        }
      })
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
    return;
  }
  if (process.argv[2] === '--live') {
    live().catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
    return;
  }
  const mode = process.argv[2];
  const pools = readFileSync(mode.startsWith('--') ? process.argv[3] : mode, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MemoryPool);
  if (mode === '--misses') {
    printJson(misses(pools));
    return;
  }
  if (mode === '--legs') {
    const d = deps();
    const bundleOf = (p: MemoryPool) =>
      bundlesFor(p, d, { v: { finalK: undefined, options: {} } }).v;
    probeLegs(loadLocomo(), pools, (m) => process.stderr.write(`${m}\n`), bundleOf)
      .then(printJson)
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
    return;
  }
  if (mode === '--sessions') {
    const assemblers = new Map<number, ReturnType<typeof deps>['assembler']>();
    const assemblerFor = (max: number) =>
      assemblers.get(max) ?? assemblers.set(max, deps(max).assembler).get(max)!;
    probeSessions(
      loadLocomo(),
      pools,
      (m) => process.stderr.write(`${m}\n`),
      (q, pool, k, c) => {
        const a = assemblerFor(c?.max ?? 12);
        const out = a.assemble(q, pool, a.limits(k), 1500, c?.o ?? {});
        return {
          contents: out.excerpts.map((e) => e.content),
          ids: out.excerpts.map((e) => e.id),
          tokens: out.token_count,
        };
      },
    )
      .then(printJson)
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
    return;
  }
  const trim = DEFAULT_EVIDENCE_OPTIONS.trim!;
  const grid: Record<string, unknown> = {};
  const spec = JSON.parse(process.env.TUNE ?? '{}') as Record<string, Row>;
  const all: Record<string, Row> = {
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
    grid[name] = run(pools, v);
    process.stderr.write(`${name} ${JSON.stringify(grid[name])}\n`);
  }
  printJson(grid);
}

main();
