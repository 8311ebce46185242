import { type AssembledEvidence, type EvidenceAssembler } from '../evidence/evidence-assembler';
import { type PrepareServed } from './speculator';

/**
 * A speculative pool's evidence, assembled (selected, redacted, fitted to the budget) as soon
 * as the pool was in, for the query it searched and the interim's limits. Assembly is a pure
 * function of those inputs, so a final with the same coalesced query and limits takes it as a
 * fresh assembly would have built it, without spending its own time on it.
 */
export class PreparedEvidence {
  constructor(
    readonly query: string,
    readonly finalK: number | undefined,
    readonly maxTokens: number,
    readonly assembled: AssembledEvidence,
  ) {}

  /** What a speculation prepares for its final: the evidence of a final with these limits. */
  static preparer(
    evidence: EvidenceAssembler,
    finalK: number | undefined,
    maxTokens: number,
  ): PrepareServed {
    const limits = evidence.limits(finalK);
    return (query, ranked) =>
      new PreparedEvidence(
        query,
        finalK,
        maxTokens,
        evidence.assemble(query, ranked.pool, limits, maxTokens),
      );
  }

  /**
   * `prepared` (a speculation's) when it was assembled for exactly this final: the same query,
   * `final_k` and token budget. Explain wants the per-excerpt redactions, which it lacks.
   */
  static servedTo(
    prepared: unknown,
    final: { query: string; finalK: number | undefined; maxTokens: number; explain: boolean },
  ): AssembledEvidence | undefined {
    return prepared instanceof PreparedEvidence &&
      !final.explain &&
      prepared.query === final.query &&
      prepared.finalK === final.finalK &&
      prepared.maxTokens === final.maxTokens
      ? prepared.assembled
      : undefined;
  }
}
