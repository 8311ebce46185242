import { roundMs } from '@app/common';
import { outgoingLabel, RedactionService } from '@app/redaction';
import { RERANKER, type Reranker, type ScoreComponents } from '@app/rerank';
import { Inject, Injectable } from '@nestjs/common';

import { type AssembledEvidence, type ScoredCandidate } from '../evidence/evidence-assembler';
import { type ContextExplain, type ExplainCandidate } from './context-explain.dto';
import { stageWaterfall } from './stage-waterfall';

/** What one build knows by the time its bundle is assembled. */
export interface ExplainInput {
  query: string;
  /** The scored pool, in the order the reranker saw it. */
  pool: readonly ScoredCandidate[];
  reranked: boolean;
  poolK: number;
  evidence: AssembledEvidence;
  stages: Readonly<Record<string, number>>;
  /** `performance.now()` by which the explanation must be done: the request's deadline. */
  until: number;
}

const six = (x: number) => Number(x.toFixed(6));

/**
 * The explain mode of `/context`: the whole pool with every signal that scored it and what
 * became of it, redactions per excerpt, and a timing waterfall. Called only for
 * `explain: true`, after the bundle is assembled. Nothing unredacted leaves: a candidate's
 * text goes through the same redactor as the excerpts, and the query is not repeated. Work
 * that would pass the deadline is left out (`partial`), never waited for.
 */
@Injectable()
export class ContextExplainer {
  constructor(
    private readonly redaction: RedactionService,
    @Inject(RERANKER) private readonly reranker: Reranker,
  ) {}

  explain(input: ExplainInput): ContextExplain {
    const started = performance.now();
    const { evidence } = input;
    let partial = false;
    const components = this.components(input);
    if (components === undefined && input.reranked && this.reranker.components) {
      partial = true;
    }
    const kept = new Set(evidence.excerpts.map((e) => e.id));
    const candidates: ExplainCandidate[] = input.pool.map((scored, i) => {
      const c = scored.candidate;
      const drop = evidence.dropped.get(c.id);
      const mergedInto = drop?.reason === 'merged' ? (drop.into ?? null) : null;
      return {
        id: c.id,
        conversation_uid: c.payload.conversation_uid,
        channel: outgoingLabel(c.payload.channel),
        occurred_at: c.payload.occurred_at,
        dense_rank: c.denseRank ?? null,
        cosine: six(c.vectorScore),
        bm25_rank: c.lexicalRank ?? null,
        bm25_score: c.lexicalScore === undefined ? null : six(c.lexicalScore),
        components: components ? roundParts(components[i]) : null,
        score: six(scored.score),
        outcome: drop?.reason ?? 'kept',
        merged_into: mergedInto,
        in_bundle: drop === undefined || (mergedInto !== null && kept.has(mergedInto)),
        content: null,
      };
    });
    // Best first, as the bundle orders; stable, so ties keep the pool's order.
    candidates.sort((a, b) => b.score - a.score);
    const text = new Map(input.pool.map((s) => [s.candidate.id, s.candidate.content]));
    for (const row of candidates) {
      if (performance.now() >= input.until) {
        partial = true;
        break;
      }
      row.content = this.redaction.redact(text.get(row.id) ?? '').text;
    }
    const stages = stageWaterfall(input.stages);
    const end = stages.reduce((t, s) => Math.max(t, s.start_ms + s.ms), 0);
    stages.push({
      name: 'explain',
      start_ms: roundMs(end),
      ms: roundMs(performance.now() - started),
      lane: 'main',
    });
    return {
      reranker: this.reranker.name,
      reranked: input.reranked,
      pool_k: input.poolK,
      candidates,
      excerpts: (evidence.chosen ?? []).map((e) => ({
        id: e.id,
        window_ids: e.windowIds,
        redactions: e.redactions,
        kept: kept.has(e.id),
      })),
      stages,
      partial,
    };
  }

  /** A shed request: no pool was searched, only the wait that ended it. */
  shed(poolK: number, stages: Readonly<Record<string, number>>): ContextExplain {
    return {
      reranker: this.reranker.name,
      reranked: false,
      pool_k: poolK,
      candidates: [],
      excerpts: [],
      stages: stageWaterfall(stages),
      partial: true,
    };
  }

  /** The reranker's own parts of each score, when it has them and there is time. */
  private components(input: ExplainInput): ScoreComponents[] | undefined {
    if (!input.reranked || !this.reranker.components || performance.now() >= input.until) {
      return undefined;
    }
    const parts = this.reranker.components(
      input.query,
      input.pool.map((s) => s.candidate),
    );
    return parts.length === input.pool.length ? parts : undefined;
  }
}

function roundParts(parts: ScoreComponents): Record<string, number | null> {
  return Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v === null ? null : six(v)]));
}
