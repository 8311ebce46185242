import { appendFileSync } from 'node:fs';

import { PromptService } from '@app/prompt';
import { Redactor } from '@app/redaction';
import { type INestApplicationContext } from '@nestjs/common';

import { ContextService } from '../../src/context/context.service';
import { EvidenceAssembler, scoredPool } from '../../src/context/evidence/evidence-assembler';
import { IngestService } from '../../src/ingest/ingest.service';
import { bundlesFor, MEMORY_MAX_TOKENS, type MemoryPool, MemoryTally } from './memory-metrics';
import { memorySearch } from './memory-search';
import { loadSgdConversations, loadSgdSlotFacts } from './sgd';
import { buildMemorySet, memoryMessages } from './sgd-memory';

const POOL_K = 20;

/**
 * The long-memory evaluation: per question, one hybrid pool and one fusion scoring, then
 * every variant's bundle from that same pool at the default budget (so before/after and
 * the single-list baselines differ only in how the bundle is assembled), plus the bundle
 * `POST /context`'s service itself returns (`service`, which must match `new_default`).
 * A turn is held when its (redacted) `role: text` line is in an excerpt. With BENCH_POOLS
 * set, each pool is appended there (`bench/memory-tune.ts` replays them).
 */
export async function memoryEval(app: INestApplicationContext, log: (m: string) => void) {
  const redactor = new Redactor({});
  const set = buildMemorySet(
    loadSgdConversations(),
    loadSgdSlotFacts(),
    {
      contacts: Number(process.env.BENCH_MEMORY_CONTACTS ?? 16),
      sessions: Number(process.env.BENCH_MEMORY_SESSIONS ?? 24),
      perKind: Number(process.env.BENCH_MEMORY_QUESTIONS ?? 150),
    },
    (value) => redactor.redact(value).text !== value,
  );
  log(`memory: ${set.conversations.length} sessions, ${set.questions.length} questions`);
  await app.get(IngestService).ingestConversations(memoryMessages(set));
  const turnLine = new Map(
    set.conversations.flatMap((c) =>
      c.turns.map((t) => [
        `${c.conversation_id}#${t.turn_idx}`,
        redactor.redact(`${t.role}: ${t.text.trim()}`).text,
      ]),
    ),
  );
  const search = memorySearch(app, POOL_K);
  const deps = { assembler: app.get(EvidenceAssembler), redactor, prompt: app.get(PromptService) };
  const service = app.get(ContextService);
  const tally = new MemoryTally();
  let mismatches = 0;
  for (const [qi, question] of set.questions.entries()) {
    const { dense, lexical, candidates, scores } = await search(
      question.question,
      question.contact_uid,
    );
    const p: MemoryPool = {
      question,
      evidence: question.evidence.map((turns) => turns.map((k) => turnLine.get(k)!)),
      pool: scoredPool(candidates, (_, i) => scores[i]),
      dense: dense.map((h) => h.id),
      lexical: lexical.map((h) => h.id),
    };
    if (process.env.BENCH_POOLS) {
      appendFileSync(process.env.BENCH_POOLS, `${JSON.stringify(p)}\n`);
    }
    const bundles = bundlesFor(p, deps);
    Object.entries(bundles).forEach(([name, b]) => tally.add(name, p, b));
    const bundle = await service.build({
      transcript: question.question,
      contact_uid: question.contact_uid,
      timeout_ms: 5000,
    });
    const served = {
      contents: bundle.historical_excerpts.map((e) => e.content),
      ids: bundle.historical_excerpts.map((e) => e.id),
      tokens: bundle.token_count,
    };
    tally.add('service', p, served);
    mismatches +=
      JSON.stringify(served.contents) === JSON.stringify(bundles.new_default.contents) ? 0 : 1;
    if ((qi + 1) % 100 === 0) {
      log(`memory: ${qi + 1}/${set.questions.length}`);
    }
  }
  return {
    sessions: set.conversations.length,
    contacts: new Set([...set.placement.values()].map((p) => p.contact)).size,
    questions: set.questions.length,
    max_tokens: MEMORY_MAX_TOKENS,
    /** Questions where the service's bundle differs from `new_default` built beside it. */
    service_mismatches: mismatches,
    variants: tally.report(),
  };
}
