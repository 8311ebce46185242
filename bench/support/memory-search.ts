import { EmbeddingService } from '@app/embedding';
import { RERANKER, type Reranker } from '@app/rerank';
import { VECTOR_STORE, type VectorHit, type VectorStore } from '@app/vector';
import { type INestApplicationContext } from '@nestjs/common';

import { mergeByRank, type PoolCandidate } from '../../src/retrieval/hybrid-search.service';

/**
 * One question's scored pool as `/context` builds it (hybrid search over the contact's
 * windows, merged by rank, reranked), for the long-memory sets that replay bundles over it.
 */
export function memorySearch(app: INestApplicationContext, poolK: number) {
  const store = app.get<VectorStore>(VECTOR_STORE);
  const reranker = app.get<Reranker>(RERANKER);
  const embedding = app.get(EmbeddingService);
  return async (
    question: string,
    contact_uid: string,
  ): Promise<{
    dense: Array<VectorHit<'conversations'>>;
    lexical: Array<VectorHit<'conversations'>>;
    candidates: PoolCandidate[];
    scores: number[];
  }> => {
    const { dense, lexical } = await store.hybridSearch('conversations', {
      embedding: await embedding.embedQuery(question),
      text: question,
      topK: poolK,
      filter: { contact_uid },
    });
    const candidates = mergeByRank(dense, lexical).slice(0, poolK);
    const scores = await reranker.score(question, candidates);
    return { dense, lexical, candidates, scores };
  };
}
