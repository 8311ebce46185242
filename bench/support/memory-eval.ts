import { EmbeddingService } from '@app/embedding';
import { PromptService } from '@app/prompt';
import { RedactionService, Redactor } from '@app/redaction';
import { RERANKER, type Reranker } from '@app/rerank';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import { type INestApplicationContext } from '@nestjs/common';

import { ContextService } from '../../src/context/context.service';
import {
  EvidenceAssembler,
  type ExcerptLimits,
  scoredPool,
} from '../../src/context/evidence/evidence-assembler';
import { type EvidenceOptions } from '../../src/context/evidence/select-evidence';
import { IngestService } from '../../src/ingest/ingest.service';
import { mergeByRank, type PoolCandidate } from '../../src/retrieval/hybrid-search.service';
import { loadSgdConversations, loadSgdSlotFacts } from './sgd';
import { buildMemorySet, type MemoryQuestion, memoryMessages } from './sgd-memory';

const POOL_K = 20;
const K = 5;

/** How a bundle is built from one scored pool: a list cut at 5, or the assembler. */
type Variant =
  | { list: 'dense' | 'lexical' | 'rrf' }
  | { limits: 'k5' | 'default'; options: Partial<EvidenceOptions> };

/** `main` is the bundle as main built it: fusion's top 5, whole windows, then the budget. */
const MAIN: Partial<EvidenceOptions> = { merge: false, diversity: 0, trim: null };
const VARIANTS: Record<string, Variant> = {
  bm25: { list: 'lexical' },
  dense: { list: 'dense' },
  rrf: { list: 'rrf' },
  main: { limits: 'k5', options: MAIN },
  merge_k5: { limits: 'k5', options: { ...MAIN, merge: true } },
  merge_diverse_k5: { limits: 'k5', options: { trim: null } },
  new_k5: { limits: 'k5', options: {} },
  new_untrimmed_default: { limits: 'default', options: { trim: null } },
  new_default: { limits: 'default', options: {} },
};

interface Tally {
  n: number;
  recall: number;
  every: number;
  tokens: number;
  excerpts: number;
  crowded: number;
  latestHeld: number;
}

const empty = (): Tally => ({
  n: 0,
  recall: 0,
  every: 0,
  tokens: 0,
  excerpts: 0,
  crowded: 0,
  latestHeld: 0,
});

/**
 * The long-memory evaluation: per question, one hybrid pool and one fusion scoring, then
 * every variant's bundle from that same pool at the default budget (so before/after and
 * the single-list baselines differ only in how the bundle is assembled), plus the bundle
 * `POST /context`'s service itself returns (`service`, which must match `new_default`).
 * A turn is held when its (redacted) `role: text` line is in an excerpt.
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
  const store = app.get<VectorStore>(VECTOR_STORE);
  const reranker = app.get<Reranker>(RERANKER);
  const embedding = app.get(EmbeddingService);
  const assembler = app.get(EvidenceAssembler);
  const redaction = app.get(RedactionService);
  const prompt = app.get(PromptService);
  const service = app.get(ContextService);
  const maxTokens = 1500;

  const tallies: Record<string, Record<string, Tally>> = {};
  const add = (
    variant: string,
    q: MemoryQuestion,
    contents: string[],
    ids: string[],
    conv: Map<string, string>,
    tokens: number,
  ) => {
    for (const kind of [q.kind, 'all']) {
      const t = ((tallies[variant] ??= {})[kind] ??= empty());
      const held = q.evidence.map((turns) =>
        turns.some((k) => contents.some((c) => c.includes(turnLine.get(k)!))),
      );
      t.n += 1;
      t.recall += held.filter(Boolean).length / held.length;
      t.every += held.every(Boolean) ? 1 : 0;
      t.tokens += tokens;
      t.excerpts += contents.length;
      const perConv = new Map<string, number>();
      ids.forEach((id) =>
        perConv.set(conv.get(id) ?? id, (perConv.get(conv.get(id) ?? id) ?? 0) + 1),
      );
      t.crowded += [...perConv.values()].some((n) => n >= 2) ? 1 : 0;
      t.latestHeld += q.latest !== undefined && held[q.latest] ? 1 : 0;
    }
  };

  let mismatches = 0;
  for (const [qi, q] of set.questions.entries()) {
    const vector = await embedding.embedQuery(q.question);
    const { dense, lexical } = await store.hybridSearch('conversations', {
      embedding: vector,
      text: q.question,
      topK: POOL_K,
      filter: { contact_uid: q.contact_uid },
    });
    const pool = mergeByRank(dense, lexical).slice(0, POOL_K);
    const scores = await reranker.score(q.question, pool);
    const scored = scoredPool(pool, (_, i) => scores[i]);
    const conv = new Map(pool.map((c) => [c.id, c.payload.conversation_uid]));
    const byId = new Map(pool.map((c) => [c.id, c]));
    for (const [name, variant] of Object.entries(VARIANTS)) {
      if ('list' in variant) {
        const order: PoolCandidate[] = (
          variant.list === 'rrf' ? pool : variant.list === 'dense' ? dense : lexical
        )
          .slice(0, K)
          .map((h) => byId.get(h.id))
          .filter((c): c is PoolCandidate => c !== undefined);
        // A list's own order, as the bundle's: the budget keeps the head.
        const excerpts = order.map((c, i) => ({
          id: c.id,
          content: c.content,
          rerank_score: K - i,
        }));
        const budget = prompt.enforceBudget(redaction.redactBundle(excerpts).excerpts, maxTokens);
        add(
          name,
          q,
          budget.excerpts.map((e) => e.content),
          budget.excerpts.map((e) => e.id),
          conv,
          budget.token_count,
        );
        continue;
      }
      const limits: ExcerptLimits = assembler.limits(variant.limits === 'k5' ? K : undefined);
      const out = assembler.assemble(q.question, scored, limits, maxTokens, variant.options);
      add(
        name,
        q,
        out.excerpts.map((e) => e.content),
        out.excerpts.map((e) => e.id),
        conv,
        out.token_count,
      );
    }
    const bundle = await service.build({
      transcript: q.question,
      contact_uid: q.contact_uid,
      timeout_ms: 5000,
    });
    const contents = bundle.historical_excerpts.map((e) => e.content);
    add(
      'service',
      q,
      contents,
      bundle.historical_excerpts.map((e) => e.id),
      conv,
      bundle.token_count,
    );
    const expected = assembler.assemble(q.question, scored, assembler.limits(undefined), maxTokens);
    mismatches +=
      JSON.stringify(expected.excerpts.map((e) => e.content)) === JSON.stringify(contents) ? 0 : 1;
    if ((qi + 1) % 100 === 0) {
      log(`memory: ${qi + 1}/${set.questions.length}`);
    }
  }
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  const report = Object.fromEntries(
    Object.entries(tallies).map(([variant, kinds]) => [
      variant,
      Object.fromEntries(
        Object.entries(kinds).map(([kind, t]) => [
          kind,
          {
            n: t.n,
            evidence_recall: r3(t.recall / t.n),
            every_evidence: r3(t.every / t.n),
            tokens: Math.round(t.tokens / t.n),
            excerpts: r3(t.excerpts / t.n),
            crowded: r3(t.crowded / t.n),
            ...(kind === 'latest' ? { latest_held: r3(t.latestHeld / t.n) } : {}),
          },
        ]),
      ),
    ]),
  );
  return {
    sessions: set.conversations.length,
    contacts: new Set([...set.placement.values()].map((p) => p.contact)).size,
    questions: set.questions.length,
    max_tokens: maxTokens,
    service_mismatches: mismatches,
    variants: report,
  };
}
