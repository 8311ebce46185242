import { InvalidInputError } from '@app/common';
import { EmbeddingService } from '@app/embedding';
import { RERANKER, type Reranker } from '@app/rerank';
import { Inject, Injectable } from '@nestjs/common';

import { type RelevanceRequestDto, type RelevanceResponseDto } from './relevance.dto';

function dot(a: number[], b: number[]): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) {
    s += a[i] * b[i];
  }
  return s;
}

const cosine = (a: number[], b: number[]) => dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));

/**
 * The spec's `relevance_score`: how relevant each candidate is to the query, in [0, 1], from
 * the configured reranker (fed the embedder's cosine, as retrieval feeds it). HTTP and CLI.
 */
@Injectable()
export class RelevanceService {
  constructor(
    private readonly embedding: EmbeddingService,
    @Inject(RERANKER) private readonly reranker: Reranker,
  ) {}

  async score(request: RelevanceRequestDto): Promise<RelevanceResponseDto> {
    const { query, candidate, candidates } = request;
    const texts = candidates ?? (candidate !== undefined ? [candidate] : []);
    if (texts.length === 0 || (candidate !== undefined && candidates !== undefined)) {
      throw new InvalidInputError(
        'invalid_candidates',
        'Give exactly one of `candidate` or `candidates`.',
      );
    }
    const [queryVector, vectors] = await Promise.all([
      this.embedding.embedQuery(query),
      this.embedding.embedDocuments(texts),
    ]);
    const pool = texts.map((content, i) => ({
      id: String(i),
      content,
      denseScore: cosine(queryVector, vectors[i]),
    }));
    const scores = (await this.reranker.score(query, pool)).map((s) => Number(s.toFixed(6)));
    return {
      query,
      reranker: this.reranker.name,
      ...(candidate !== undefined ? { score: scores[0] } : {}),
      scores,
    };
  }
}
