import { appendFileSync } from 'node:fs';

import { PromptService } from '@app/prompt';
import { Redactor } from '@app/redaction';
import { type INestApplicationContext } from '@nestjs/common';

import { ContextService } from '../../src/context/context.service';
import { questionRange } from '../../src/context/dated/question-range';
import { EvidenceAssembler, scoredPool } from '../../src/context/evidence/evidence-assembler';
import { IngestService } from '../../src/ingest/ingest.service';
import { loadLocomo, type LocomoSet } from './locomo';
import { type Bundle, bundlesFor, MemoryTally } from './memory-metrics';
import { memorySearch } from './memory-search';
import { summarize } from './stats';

const POOL_K = 20;
/** The default budget, and the curve of recall against tokens around it. */
const BUDGETS = [500, 1000, 1500, 3000];

/** `/context` requests per question: the defaults, a hard `final_k`, and the budget curve. */
const REQUESTS: Record<string, { final_k?: number; max_tokens?: number; pool_k?: number }> = {
  service_default: {},
  service_k5: { final_k: 5 },
  service_k10: { final_k: 10 },
  ...Object.fromEntries(BUDGETS.map((t) => [`service_tokens_${t}`, { max_tokens: t }])),
  // BENCH_LOCOMO_POOL_K=40: also the defaults over a deeper pool (how much is the pool's).
  ...(process.env.BENCH_LOCOMO_POOL_K
    ? { service_pool_k: { pool_k: Number(process.env.BENCH_LOCOMO_POOL_K) } }
    : {}),
};

/**
 * LoCoMo evidence recall through `POST /context`'s own service (`ContextService.build`, the
 * same code path, defaults unless a row says otherwise): an evidence turn counts only when
 * its `speaker: text` line is inside an excerpt of the bundle the agent receives. BM25,
 * dense and RRF rows are each list's top 5 from one hybrid search under the same budget.
 * Per category (multi-hop, temporal, open-domain, single-hop) and overall; `pool_unbounded`
 * is the ceiling of any assembly (every pool window, whole). `service_asked_at`: the defaults
 * with `asked_at` a day after the contact's last session (`*_resolved`: the questions only it
 * gives a date, both ways). BENCH_POOLS=<file> appends
 * each question's scored pool there, for replaying the assembler offline.
 */
export async function locomoEval(app: INestApplicationContext, log: (m: string) => void) {
  const redactor = new Redactor({});
  const set: LocomoSet = loadLocomo();
  log(
    `locomo: ${set.files} conversations, ${set.messages.length} turns, ${set.questions.length} questions`,
  );
  const t0 = performance.now();
  await app.get(IngestService).ingestConversations(set.messages);
  log(`locomo: ingested in ${Math.round(performance.now() - t0)} ms`);
  // As a window holds a turn: the text masked at ingest, then the line masked again on the way out.
  const lineOf = (key: string) => {
    const m = set.turns.get(key)!;
    return redactor.redact(`${m.sender}: ${redactor.redact(m.text).text.trim()}`).text;
  };
  const search = memorySearch(app, POOL_K);
  const deps = { assembler: app.get(EvidenceAssembler), redactor, prompt: app.get(PromptService) };
  const service = app.get(ContextService);
  const tally = new MemoryTally();
  let buildMs = 0;
  // Questions that name a date (issue 40's date leg): their own rows and build times.
  const buildTimes: Record<'dated' | 'undated', number[]> = { dated: [], undated: [] };
  // `asked_at` rows: the call is a day after the contact's last session (the history's "now").
  const lastAt = new Map<string, number>();
  set.messages.forEach((m) =>
    lastAt.set(m.contact_uid, Math.max(lastAt.get(m.contact_uid) ?? 0, Date.parse(m.occurred_at))),
  );
  for (const [qi, q] of set.questions.entries()) {
    const { dense, lexical, candidates, scores } = await search(q.question, q.contact_uid);
    const p = {
      question: { kind: q.category, question: q.question },
      evidence: q.evidence.map((id) => [lineOf(`${q.contact_uid}|${id}`)]),
      pool: scoredPool(candidates, (_, i) => scores[i]),
      dense: dense.map((h) => h.id),
      lexical: lexical.map((h) => h.id),
    };
    const lists = bundlesFor(p, deps, {
      bm25: { list: 'lexical' },
      dense: { list: 'dense' },
      rrf: { list: 'rrf' },
    });
    Object.entries(lists).forEach(([name, b]) => tally.add(name, p, b));
    // The ceiling of any assembly: every window of the pool, no budget.
    tally.add('pool_unbounded', p, {
      contents: candidates.map((c) => c.content),
      ids: candidates.map((c) => c.id),
      tokens: 0,
    });
    if (process.env.BENCH_POOLS) {
      appendFileSync(process.env.BENCH_POOLS, `${JSON.stringify(p)}\n`);
    }
    let defaultBundle: Bundle | undefined;
    for (const [name, request] of Object.entries(REQUESTS)) {
      const t = performance.now();
      const bundle = await service.build({
        transcript: q.question,
        contact_uid: q.contact_uid,
        timeout_ms: 10_000,
        ...request,
      });
      const dated = questionRange(q.question) !== undefined;
      if (name === 'service_default') {
        buildMs += performance.now() - t;
        buildTimes[dated ? 'dated' : 'undated'].push(performance.now() - t);
      }
      const served: Bundle = {
        contents: bundle.historical_excerpts.map((e) => e.content),
        ids: bundle.historical_excerpts.map((e) => e.id),
        tokens: bundle.token_count,
      };
      tally.add(name, p, served);
      if (name === 'service_default') {
        defaultBundle = served;
      }
      if (dated && (name === 'service_default' || name === 'service_k5')) {
        tally.add(`${name}_dated`, p, served);
      }
    }
    const askedAt = new Date((lastAt.get(q.contact_uid) ?? 0) + 86_400_000);
    const asked = await service.build({
      transcript: q.question,
      contact_uid: q.contact_uid,
      timeout_ms: 10_000,
      asked_at: askedAt.toISOString(),
    });
    const servedAsked: Bundle = {
      contents: asked.historical_excerpts.map((e) => e.content),
      ids: asked.historical_excerpts.map((e) => e.id),
      tokens: asked.token_count,
    };
    tally.add('service_asked_at', p, servedAsked);
    // The questions only `asked_at` gives a date ("in June", "last week"): both ways.
    if (!questionRange(q.question) && questionRange(q.question, askedAt)) {
      tally.add('service_asked_at_resolved', p, servedAsked);
      tally.add('service_default_resolved', p, defaultBundle!);
    }
    if ((qi + 1) % 100 === 0) {
      log(`locomo: ${qi + 1}/${set.questions.length}`);
    }
  }
  return {
    conversations: set.files,
    turns: set.messages.length,
    questions: set.questions.length,
    max_tokens_default: 1500,
    budgets: BUDGETS,
    /** Wall time of a default build in this process (noisy on a shared box). */
    mean_build_ms: Math.round((buildMs / Math.max(1, set.questions.length)) * 10) / 10,
    /** Default builds of questions that name a date and of the rest, ms (same caveat). */
    build_ms: { dated: summarize(buildTimes.dated), undated: summarize(buildTimes.undated) },
    variants: tally.report(),
  };
}
