import { DependencyError, withDeadline } from '@app/common';
import { type LlmProvider } from '@app/llm';

import { DEFAULT_FUSION_OPTIONS, type FusionOptions, fusionScores } from '../fusion/fusion-score';
import { type RerankCandidate, type Reranker } from '../interfaces/reranker.interface';

export interface LlmRerankerOptions {
  /** The rerank stage's own ceiling; the caller's signal (its deadline) also applies. */
  timeoutMs?: number;
  /** Characters of each passage shown to the model: bounds the prompt on a 20-window pool. */
  maxPassageChars?: number;
  fusion?: Partial<FusionOptions>;
}

export const LLM_RERANK_DEFAULTS = { timeoutMs: 2000, maxPassageChars: 700 } as const;

/** The model's grade dominates; fusion only orders what the model graded alike. */
const MODEL_WEIGHT = 0.85;

const SYSTEM = [
  'You grade search results for relevance.',
  'Given a question and numbered passages, rate how well each passage answers the question:',
  '10 = answers it directly, 5 = on the topic but not the answer, 0 = unrelated.',
  'Reply with exactly one line per passage in the form "[n] score" and nothing else.',
].join(' ');

/**
 * Listwise reranking by the configured chat model (`RERANK_PROVIDER=llm`): one request grades
 * the whole pool, so a 20-candidate pool costs one round trip, not twenty. Each score is the
 * model's grade (0–10, scaled to [0, 1]) blended with the fusion score, which breaks ties
 * among passages the model graded alike and stands in for grades the model left out.
 *
 * On a timeout (the stage's `timeoutMs` or the caller's deadline), a failed request, or a
 * reply that grades fewer than half the passages, the fusion scores are returned instead:
 * the pool falls back to fusion order rather than losing the turn. Aborted before it starts,
 * it rejects like the other providers.
 */
export class LlmReranker implements Reranker {
  readonly name = 'llm' as const;
  private readonly options: Required<Omit<LlmRerankerOptions, 'fusion'>>;
  private readonly fusion: FusionOptions;

  constructor(
    private readonly llm: LlmProvider,
    options: LlmRerankerOptions = {},
  ) {
    this.options = {
      timeoutMs: options.timeoutMs ?? LLM_RERANK_DEFAULTS.timeoutMs,
      maxPassageChars: options.maxPassageChars ?? LLM_RERANK_DEFAULTS.maxPassageChars,
    };
    this.fusion = { ...DEFAULT_FUSION_OPTIONS, ...options.fusion };
  }

  async score(
    query: string,
    candidates: RerankCandidate[],
    signal?: AbortSignal,
  ): Promise<number[]> {
    if (signal?.aborted) {
      throw new DependencyError('rerank_failed', 'Rerank aborted before it started.');
    }
    const fused = fusionScores(query, candidates, this.fusion);
    if (candidates.length === 0) {
      return fused;
    }
    const outcome = await withDeadline(this.options.timeoutMs, (deadline) =>
      this.grade(query, candidates, signal ? AbortSignal.any([signal, deadline]) : deadline),
    );
    const grades = outcome.status === 'ok' ? outcome.value : undefined;
    if (!grades || grades.size * 2 < candidates.length) {
      return fused;
    }
    return fused.map((f, i) => {
      const grade = grades.get(i + 1);
      return grade === undefined
        ? (1 - MODEL_WEIGHT) * f
        : MODEL_WEIGHT * grade + (1 - MODEL_WEIGHT) * f;
    });
  }

  /** 1-based passage number → grade in [0, 1], from the model's whole reply. */
  private async grade(
    query: string,
    candidates: RerankCandidate[],
    signal: AbortSignal,
  ): Promise<Map<number, number>> {
    const passages = candidates.map((c) =>
      c.content.replace(/\s+/g, ' ').trim().slice(0, this.options.maxPassageChars),
    );
    const prompt = [
      `Question: ${query}`,
      '',
      'Passages:',
      ...passages.map((p, i) => `[${i + 1}] ${p}`),
    ].join('\n');
    let reply = '';
    for await (const delta of this.llm.stream(
      { system: SYSTEM, messages: [{ role: 'user', content: prompt }], passages, question: query },
      signal,
    )) {
      reply += delta;
    }
    return parseGrades(reply, candidates.length);
  }
}

/** `[n] score` lines (also `n: score`, `[n]: score/10`); the first grade per passage wins. */
export function parseGrades(reply: string, count: number): Map<number, number> {
  const grades = new Map<number, number>();
  for (const [, n, value] of reply.matchAll(
    /\[?(\d+)\]?\s*[:=-]?\s*(\d+(?:\.\d+)?)(?:\s*\/\s*10)?/g,
  )) {
    const index = Number(n);
    const grade = Number(value);
    if (index >= 1 && index <= count && grade >= 0 && grade <= 10 && !grades.has(index)) {
      grades.set(index, grade / 10);
    }
  }
  return grades;
}
