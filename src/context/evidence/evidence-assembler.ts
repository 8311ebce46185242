import { roundMs } from '@app/common';
import { PromptService } from '@app/prompt';
import { RedactionService } from '@app/redaction';
import { Inject, Injectable } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '../../config/app-config';
import { type PoolCandidate } from '../../retrieval/hybrid-search.service';
import { type HistoricalExcerpt } from '../context.dto';
import {
  DEFAULT_EVIDENCE_OPTIONS,
  type DropReason,
  type EvidenceOptions,
  type ScoredWindow,
  selectEvidence,
} from './select-evidence';

/** A pool member with the score the bundle orders by (rerank, or the cosine when degraded). */
export interface ScoredCandidate extends ScoredWindow {
  candidate: PoolCandidate;
}

/** The excerpts of a bundle and how they came to be. */
export interface AssembledEvidence {
  /** Redacted, within `maxTokens`, best score first. */
  excerpts: HistoricalExcerpt[];
  token_count: number;
  /** Chosen excerpts the budget left out entirely (the bundle's `dropped_excerpts`). */
  budgetDropped: number;
  redactions: Record<string, number>;
  /** Why each pool window is not an excerpt of its own (keyed by window id). */
  dropped: Map<string, { reason: DropReason; into?: string }>;
  timings: { select_ms: number; redact_ms: number; budget_ms: number };
  /** Only when asked (the explain mode): every chosen excerpt, its windows and redactions. */
  chosen?: ChosenExcerpt[];
}

/** An excerpt as chosen, before the budget: which windows it holds, what was masked in it. */
export interface ChosenExcerpt {
  id: string;
  windowIds: string[];
  redactions: Record<string, number>;
}

/** How many excerpts the bundle may hold: see {@link EvidenceAssembler.limits}. */
export interface ExcerptLimits {
  baseK: number;
  maxK: number;
}

/**
 * Scored pool → bundle excerpts: choose distinct evidence (merge, diversity, trim), redact
 * what was chosen, then fit it to the token budget. Owns the order of those steps so the
 * service and the benchmarks run the same code.
 */
@Injectable()
export class EvidenceAssembler {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly redaction: RedactionService,
    private readonly prompt: PromptService,
  ) {}

  /**
   * `final_k` given: a hard cap, and the bundle offers exactly that many distinct excerpts
   * (as before). Not given: FINAL_K distinct excerpts, then more while they score within
   * the fill margin of the best, up to CONTEXT_MAX_EXCERPTS; the token budget decides how
   * many of those fit.
   */
  limits(finalK: number | undefined): ExcerptLimits {
    const { finalK: base, maxExcerpts } = this.config.context;
    return finalK !== undefined
      ? { baseK: finalK, maxK: finalK }
      : { baseK: base, maxK: Math.max(base, maxExcerpts) };
  }

  /** Candidates asked of each list: `pool_k` (or POOL_K), never fewer than `maxK` excerpts. */
  poolSize(finalK: number | undefined, poolK: number | undefined): number {
    return Math.max(this.limits(finalK).maxK, poolK ?? this.config.context.poolK);
  }

  assemble(
    query: string,
    pool: readonly ScoredCandidate[],
    limits: ExcerptLimits,
    maxTokens: number,
    options: Partial<EvidenceOptions> = {},
    explain = false,
  ): AssembledEvidence {
    const t0 = performance.now();
    const selection = selectEvidence(
      query,
      pool,
      { ...DEFAULT_EVIDENCE_OPTIONS, ...limits, ...options },
      { maxTokens, count: (text) => this.prompt.count(text) },
    );
    const chosen: HistoricalExcerpt[] = selection.excerpts.map((e) =>
      toExcerpt(e.window.candidate, e.window.score, e.content, e.occurred_at),
    );
    const t1 = performance.now();
    const { excerpts: redacted, counts, perExcerpt } = this.redaction.redactBundle(chosen, explain);
    const t2 = performance.now();
    const budget = this.prompt.enforceBudget(redacted, maxTokens);
    const t3 = performance.now();
    const kept = new Set(budget.excerpts.map((e) => e.id));
    chosen
      .filter((e) => !kept.has(e.id))
      .forEach((e) => selection.dropped.set(e.id, { reason: 'budget' }));
    const assembled: AssembledEvidence = {
      excerpts: budget.excerpts,
      token_count: budget.token_count,
      budgetDropped: budget.dropped + selection.overBudget,
      redactions: counts,
      dropped: selection.dropped,
      timings: {
        select_ms: roundMs(t1 - t0),
        redact_ms: roundMs(t2 - t1),
        budget_ms: roundMs(t3 - t2),
      },
    };
    if (perExcerpt) {
      assembled.chosen = selection.excerpts.map((e, i) => ({
        id: e.window.id,
        windowIds: e.windowIds,
        redactions: perExcerpt[i],
      }));
    }
    return assembled;
  }
}

function toExcerpt(
  candidate: PoolCandidate,
  score: number,
  content: string,
  occurredAt: string,
): HistoricalExcerpt {
  return {
    id: candidate.id,
    content,
    channel: candidate.payload.channel,
    occurred_at: occurredAt,
    rerank_score: Number(score.toFixed(6)),
    vector_score: Number(candidate.vectorScore.toFixed(6)),
  };
}

/** A pool with one score per candidate, as the assembler reads it. */
export function scoredPool(
  candidates: readonly PoolCandidate[],
  scoreOf: (candidate: PoolCandidate, index: number) => number,
): ScoredCandidate[] {
  return candidates.map((c, i) => ({
    candidate: c,
    id: c.id,
    content: c.content,
    score: scoreOf(c, i),
    conversation_uid: c.payload.conversation_uid,
    occurred_at: c.payload.occurred_at,
  }));
}
