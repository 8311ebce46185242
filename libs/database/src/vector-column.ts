import { ConfigurationError } from '@app/common';

/**
 * pgvector's HNSW indexes `vector` up to 2,000 dimensions; `halfvec` (16-bit floats) up to
 * 4,000. Wider embedders (OpenAI's text-embedding-3-large, 3,072-d) get `halfvec(N)`
 * columns and `halfvec_cosine_ops` indexes. Query and insert parameters stay `::vector`:
 * pgvector casts vector to halfvec implicitly, so `halfvec <=> vector` resolves to the
 * halfvec operator and the index serves it.
 */
export const VECTOR_HNSW_MAX_DIMENSION = 2000;
const HALFVEC_HNSW_MAX_DIMENSION = 4000;

export type VectorColumnType = 'vector' | 'halfvec';

/** The column type a store of this dimension is built with. */
export function vectorColumnType(dimension: number): VectorColumnType {
  return dimension > VECTOR_HNSW_MAX_DIMENSION ? 'halfvec' : 'vector';
}

/** A dimension no HNSW index takes is refused before anything is built. */
export function assertIndexableDimension(dimension: number): void {
  if (!Number.isInteger(dimension) || dimension < 1 || dimension > HALFVEC_HNSW_MAX_DIMENSION) {
    throw new ConfigurationError(
      `The embedder produces ${dimension}-d vectors; pgvector's HNSW indexes 1 to ` +
        `${HALFVEC_HNSW_MAX_DIMENSION} dimensions (halfvec). Choose a smaller model or set ` +
        `EMBEDDING_DIMENSION to a size the model can shorten to (OpenAI's text-embedding-3 can).`,
    );
  }
}

/** The HNSW operator class for cosine distance on that column. */
export function cosineOpclass(dimension: number): string {
  return `${vectorColumnType(dimension)}_cosine_ops`;
}
