import { type PromptService } from '@app/prompt';
import { type Redactor } from '@app/redaction';

import {
  type EvidenceAssembler,
  type ScoredCandidate,
} from '../../src/context/evidence/evidence-assembler';
import { type EvidenceOptions } from '../../src/context/evidence/select-evidence';
import { type MemoryQuestion } from './sgd-memory';

const K = 5;
export const MEMORY_MAX_TOKENS = 1500;

/** How a bundle is built from one scored pool: a list cut at 5, or the assembler. */
export type Variant =
  | { list: 'dense' | 'lexical' | 'rrf' }
  | { finalK: number | undefined; options: Partial<EvidenceOptions> };

/** `main` is the bundle as main built it: fusion's top 5, whole windows, then the budget. */
export const MAIN: Partial<EvidenceOptions> = { merge: false, diversity: 0, trim: null };
export const VARIANTS: Record<string, Variant> = {
  bm25: { list: 'lexical' },
  dense: { list: 'dense' },
  rrf: { list: 'rrf' },
  main: { finalK: K, options: MAIN },
  merge_k5: { finalK: K, options: { ...MAIN, merge: true } },
  merge_diverse_k5: { finalK: K, options: { trim: null } },
  new_k5: { finalK: K, options: {} },
  new_untrimmed_default: { finalK: undefined, options: { trim: null } },
  new_default: { finalK: undefined, options: {} },
};

/** One question with its pool, as the live run sees it and as `BENCH_POOLS` stores it. */
export interface MemoryPool {
  question: MemoryQuestion;
  /** Redacted `role: text` lines of each piece of evidence's turns. */
  evidence: string[][];
  pool: ScoredCandidate[];
  /** Top ids of each list (the RRF list is the pool's own order). */
  dense: string[];
  lexical: string[];
}

/** What the tally reads of a question: its kind (any label), its evidence, its pool. */
export type TallyInput = Pick<MemoryPool, 'evidence' | 'pool'> & {
  question: { kind: string; latest?: number };
};

export interface Bundle {
  contents: string[];
  ids: string[];
  tokens: number;
}

/** Every variant's bundle from one pool. */
export function bundlesFor(
  p: Omit<MemoryPool, 'question'> & { question: { question: string } },
  deps: { assembler: EvidenceAssembler; redactor: Redactor; prompt: PromptService },
  variants: Record<string, Variant> = VARIANTS,
  maxTokens = MEMORY_MAX_TOKENS,
): Record<string, Bundle> {
  const byId = new Map(p.pool.map((c) => [c.id, c]));
  return Object.fromEntries(
    Object.entries(variants).map(([name, v]): [string, Bundle] => {
      if ('list' in v) {
        const order = (
          v.list === 'rrf' ? p.pool.map((c) => c.id) : v.list === 'dense' ? p.dense : p.lexical
        )
          .slice(0, K)
          .map((id) => byId.get(id))
          .filter((c) => c !== undefined);
        // The list's own order: the budget keeps its head.
        const excerpts = order.map((c, i) => ({
          id: c.id,
          content: c.content,
          rerank_score: K - i,
        }));
        const budget = deps.prompt.enforceBudget(
          deps.redactor.redactBundle(excerpts).excerpts,
          maxTokens,
        );
        return [name, toBundle(budget.excerpts, budget.token_count)];
      }
      const limits = deps.assembler.limits(v.finalK);
      const out = deps.assembler.assemble(
        p.question.question,
        p.pool,
        limits,
        maxTokens,
        v.options,
      );
      return [name, toBundle(out.excerpts, out.token_count)];
    }),
  );
}

const toBundle = (excerpts: Array<{ id: string; content: string }>, tokens: number): Bundle => ({
  contents: excerpts.map((e) => e.content),
  ids: excerpts.map((e) => e.id),
  tokens,
});

interface Tally {
  n: number;
  recall: number;
  every: number;
  tokens: number;
  excerpts: number;
  crowded: number;
  latestHeld: number;
}

/** Evidence recall, every-evidence rate, tokens, per variant and question kind. */
export class MemoryTally {
  private readonly tallies: Record<string, Record<string, Tally>> = {};

  add(variant: string, p: TallyInput, bundle: Bundle): void {
    const conversation = new Map(p.pool.map((c) => [c.id, c.conversation_uid]));
    const held = p.evidence.map((lines) =>
      lines.some((line) => bundle.contents.some((c) => c.includes(line))),
    );
    const perConversation = new Map<string, number>();
    bundle.ids.forEach((id) => {
      const c = conversation.get(id) ?? id;
      perConversation.set(c, (perConversation.get(c) ?? 0) + 1);
    });
    for (const kind of [p.question.kind, 'all']) {
      const t = ((this.tallies[variant] ??= {})[kind] ??= {
        n: 0,
        recall: 0,
        every: 0,
        tokens: 0,
        excerpts: 0,
        crowded: 0,
        latestHeld: 0,
      });
      t.n += 1;
      t.recall += held.filter(Boolean).length / held.length;
      t.every += held.every(Boolean) ? 1 : 0;
      t.tokens += bundle.tokens;
      t.excerpts += bundle.contents.length;
      t.crowded += [...perConversation.values()].some((n) => n >= 2) ? 1 : 0;
      t.latestHeld += p.question.latest !== undefined && held[p.question.latest] ? 1 : 0;
    }
  }

  report() {
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    return Object.fromEntries(
      Object.entries(this.tallies).map(([variant, kinds]) => [
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
              /** Share of bundles with two or more excerpts of one conversation. */
              crowded: r3(t.crowded / t.n),
              ...(kind === 'latest' ? { latest_held: r3(t.latestHeld / t.n) } : {}),
            },
          ]),
        ),
      ]),
    );
  }
}
