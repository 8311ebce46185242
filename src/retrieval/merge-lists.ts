import { type RerankCandidate } from '@app/rerank';
import { type CollectionName, type VectorHit } from '@app/vector';

/** A hybrid-pool member of any collection: what a reranker reads, plus the store's hit. */
export interface MergedCandidate<C extends CollectionName> extends RerankCandidate {
  hit: VectorHit<C>;
  /** Cosine similarity to the query (also for candidates found by the lexical list only). */
  vectorScore: number;
}

/** Pre-rank used only to order (and cap) the union before reranking. */
const RRF_K = 60;

/**
 * Union of the dense and lexical lists keyed by id, carrying each list's 1-based rank, in
 * plain RRF order (ties: higher cosine first). Lexical-only hits take the cosine the store
 * computed for them, so every candidate has a dense score to fuse and to gate on.
 */
export function mergeLists<C extends CollectionName>(
  dense: Array<VectorHit<C>>,
  lexical: Array<VectorHit<C>>,
): Array<MergedCandidate<C>> {
  const byId = new Map<string, MergedCandidate<C>>();
  // Conversation windows carry their time, which fusion's recency credit reads.
  const occurredAt = (hit: VectorHit<C>) =>
    'occurred_at' in hit.payload ? hit.payload.occurred_at : undefined;
  dense.forEach((hit, i) =>
    byId.set(hit.id, {
      id: hit.id,
      content: hit.content,
      hit,
      denseScore: hit.score,
      denseRank: i + 1,
      vectorScore: hit.score,
      occurredAt: occurredAt(hit),
    }),
  );
  lexical.forEach((hit, i) => {
    const existing = byId.get(hit.id);
    if (existing) {
      existing.lexicalRank = i + 1;
      existing.lexicalScore = hit.score;
    } else {
      byId.set(hit.id, {
        id: hit.id,
        content: hit.content,
        hit,
        denseScore: hit.similarity,
        lexicalRank: i + 1,
        lexicalScore: hit.score,
        vectorScore: hit.similarity ?? 0,
        occurredAt: occurredAt(hit),
      });
    }
  });
  const rrf = (c: RerankCandidate) =>
    (c.denseRank ? 1 / (RRF_K + c.denseRank) : 0) +
    (c.lexicalRank ? 1 / (RRF_K + c.lexicalRank) : 0);
  return [...byId.values()].sort((a, b) => rrf(b) - rrf(a) || b.vectorScore - a.vectorScore);
}
