import { PromptService, TokenCounter } from '@app/prompt';
import { RedactionService } from '@app/redaction';
import { FusionReranker, NoneReranker } from '@app/rerank';

import { type AppConfig } from '../../config/app-config';
import { type PoolCandidate } from '../../retrieval/hybrid-search.service';
import { EvidenceAssembler, scoredPool } from '../evidence/evidence-assembler';
import { ContextExplainer } from './context-explainer';

const redaction = new RedactionService({});
const config = { context: { finalK: 2, maxExcerpts: 3 } } as AppConfig;
const assembler = new EvidenceAssembler(
  config,
  redaction,
  new PromptService(new TokenCounter(), {}),
);
const fusion = new FusionReranker();
const sut = new ContextExplainer(redaction, fusion);

const QUERY = 'when does my dining table ship';
const turns = (from: number, to: number, extra = '') =>
  Array.from({ length: to - from }, (_, i) => `customer: turn ${from + i} ${extra}`.trim());

/** Two overlapping windows of one conversation, one on its own, one weak, one with PII. */
function candidates(): PoolCandidate[] {
  const base = (id: string, conversation: string, content: string, day: number) => ({
    id,
    content,
    payload: {
      contact_uid: 'c',
      location_uid: null,
      conversation_uid: conversation,
      channel: 'sms',
      occurred_at: new Date(Date.UTC(2026, 0, day)).toISOString(),
    },
  });
  return [
    {
      ...base('a1', 'conv-a', turns(0, 6, 'dining table ship').join('\n'), 2),
      denseRank: 1,
      denseScore: 0.9,
      vectorScore: 0.9,
      lexicalRank: 1,
      lexicalScore: 7.5,
    },
    {
      ...base('a2', 'conv-a', turns(4, 10, 'dining table ship').join('\n'), 3),
      denseRank: 2,
      denseScore: 0.8,
      vectorScore: 0.8,
    },
    {
      ...base(
        'b1',
        'conv-b',
        'customer: my table ships to jane.doe@example.com, call 415-555-0134',
        4,
      ),
      denseRank: 3,
      denseScore: 0.6,
      vectorScore: 0.6,
      lexicalRank: 2,
      lexicalScore: 3.1,
    },
    {
      ...base('c1', 'conv-c', 'agent: thanks for reaching out, have a great day', 1),
      lexicalRank: 3,
      lexicalScore: 0.2,
      vectorScore: 0.05,
    },
  ];
}

async function build(maxTokens = 10_000, until = Infinity) {
  const pool = candidates();
  const scores = await fusion.score(QUERY, pool);
  const scored = scoredPool(pool, (_, i) => scores[i]);
  const evidence = assembler.assemble(
    QUERY,
    scored,
    assembler.limits(undefined),
    maxTokens,
    {},
    true,
  );
  const explained = sut.explain({
    query: QUERY,
    pool: scored,
    reranked: true,
    poolK: 20,
    evidence,
    stages: {
      intake_ms: 1,
      queue_ms: 0,
      coalesce_ms: 0.5,
      embed_ms: 4,
      search_ms: 6,
      retrieve_ms: 10,
      live_ms: 3,
      rerank_ms: 1,
      select_ms: 0.4,
      redact_ms: 0.2,
      budget_ms: 0.1,
    },
    until,
  });
  return { pool, scores, evidence, explained };
}

describe('ContextExplainer', () => {
  it('lists the whole pool, best first, with each list’s rank and score and every fusion component', async () => {
    const { pool, scores, explained } = await build();
    expect(explained.candidates.map((c) => c.id).sort()).toEqual(pool.map((c) => c.id).sort());
    const scoresDesc = explained.candidates.map((c) => c.score);
    expect(scoresDesc).toEqual([...scoresDesc].sort((a, b) => b - a));
    pool.forEach((c, i) => {
      const row = explained.candidates.find((r) => r.id === c.id);
      expect(row).toMatchObject({
        dense_rank: c.denseRank ?? null,
        bm25_rank: c.lexicalRank ?? null,
        bm25_score: c.lexicalScore ?? null,
        cosine: c.vectorScore,
        score: Number(scores[i].toFixed(6)),
      });
    });
    // The components say why: the window with every query word covers the most of the
    // question, the sign-off none and is boilerplate, and relevance follows.
    const part = (id: string, name: 'overlap' | 'boilerplate' | 'relevance'): number =>
      Number(explained.candidates.find((r) => r.id === id)?.components?.[name]);
    expect(part('a1', 'overlap')).toBeGreaterThan(part('b1', 'overlap'));
    expect(part('b1', 'overlap')).toBeGreaterThan(part('c1', 'overlap'));
    expect(part('c1', 'overlap')).toBe(0);
    expect(part('c1', 'boilerplate')).toBeGreaterThan(part('a1', 'boilerplate'));
    expect(part('a1', 'relevance')).toBeGreaterThan(part('c1', 'relevance'));
    expect(explained).toMatchObject({
      reranker: 'fusion',
      reranked: true,
      pool_k: 20,
      partial: false,
    });
  });

  it('says why each window is in or out: kept, merged into its excerpt, below the fill margin', async () => {
    const { evidence, explained } = await build();
    const row = (id: string) => explained.candidates.find((c) => c.id === id);
    const keptIds = evidence.excerpts.map((e) => e.id);
    expect(keptIds).toContain('a1');
    expect(row('a1')).toMatchObject({ outcome: 'kept', in_bundle: true, merged_into: null });
    expect(row('a2')).toMatchObject({ outcome: 'merged', merged_into: 'a1', in_bundle: true });
    expect(row('c1')?.outcome).toBe('threshold');
    expect(row('c1')?.in_bundle).toBe(false);
    expect(
      explained.candidates
        .filter((c) => c.outcome === 'kept')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...keptIds].sort());
  });

  it('names budget drops, and excerpts the budget left out are not kept', async () => {
    const { evidence, explained } = await build(30);
    expect(evidence.budgetDropped).toBeGreaterThan(0);
    const dropped = explained.candidates.filter((c) => c.outcome === 'budget');
    expect(dropped).toHaveLength(evidence.budgetDropped);
    expect(dropped.every((c) => !c.in_bundle)).toBe(true);
    expect(explained.excerpts.filter((e) => !e.kept).map((e) => e.id)).toEqual(
      dropped.map((c) => c.id),
    );
  });

  it('redacts candidate text like excerpts and counts redactions per excerpt', async () => {
    const { evidence, explained } = await build();
    const json = JSON.stringify(explained);
    expect(json).not.toContain('jane.doe@example.com');
    expect(json).not.toContain('415-555-0134');
    expect(explained.candidates.find((c) => c.id === 'b1')?.content).toBe(
      'customer: my table ships to [REDACTED:EMAIL], call [REDACTED:PHONE]',
    );
    expect(explained.excerpts.find((e) => e.id === 'b1')?.redactions).toEqual({
      EMAIL: 1,
      PHONE: 1,
    });
    expect(explained.excerpts.find((e) => e.id === 'a1')).toMatchObject({
      window_ids: ['a1', 'a2'],
      redactions: {},
    });
    // Per excerpt sums to the bundle's own counts.
    expect(evidence.redactions).toEqual({ EMAIL: 1, PHONE: 1 });
  });

  it('leaves out what the deadline has no room for, and says so', async () => {
    const { explained } = await build(10_000, 0);
    expect(explained.partial).toBe(true);
    expect(explained.candidates.every((c) => c.content === null && c.components === null)).toBe(
      true,
    );
    expect(explained.candidates).toHaveLength(4);
  });

  it('has no components for a reranker without parts, and is not partial for it', () => {
    const pool = candidates();
    const scored = scoredPool(pool, (_, i) => (pool.length - i) / pool.length);
    const evidence = assembler.assemble(
      QUERY,
      scored,
      assembler.limits(undefined),
      10_000,
      {},
      true,
    );
    const explained = new ContextExplainer(redaction, new NoneReranker()).explain({
      query: QUERY,
      pool: scored,
      reranked: true,
      poolK: 4,
      evidence,
      stages: {},
      until: Infinity,
    });
    expect(explained.reranker).toBe('none');
    expect(explained.partial).toBe(false);
    expect(explained.candidates.every((c) => c.components === null)).toBe(true);
  });

  it('the assembler counts per excerpt only when asked', () => {
    const scored = scoredPool(candidates(), (c) => c.vectorScore);
    expect(
      assembler.assemble(QUERY, scored, assembler.limits(undefined), 10_000).chosen,
    ).toBeUndefined();
  });
});
