/**
 * BM25-style sparse vectors for Qdrant's lexical list. Qdrant stores and scores them; the
 * collection's `modifier: idf` multiplies each query term by its inverse document frequency
 * at query time, so documents carry only the saturated, length-normalised term frequency.
 * Terms come from the shared normaliser (`terms` in `@app/common`), the same the pgvector
 * store's BM25 uses.
 */
import { BM25_B, BM25_K1, stem, terms } from '@app/common';

export { stem, terms };

const K1 = BM25_K1;
const B = BM25_B;
/**
 * Assumed average document length in content terms. Qdrant cannot know the corpus average at
 * upsert time; a six-turn conversation window has about this many terms after stop words.
 */
const AVG_TERMS = 40;

/** Qdrant's sparse vector: parallel term indices (unique, u32) and weights. */
export interface SparseVector {
  indices: number[];
  values: number[];
}

/** FNV-1a: a stable 32-bit index per term, so every instance encodes alike with no vocabulary. */
export function termIndex(term: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(term, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Sums weights per index (terms that hash alike merge) and sorts by index. */
function toSparse(weights: Map<number, number>): SparseVector {
  const indices = [...weights.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((i) => weights.get(i) as number) };
}

/** A document's BM25 term weights (without idf, which Qdrant applies per query). */
export function encodeDocument(text: string): SparseVector {
  const all = terms(text);
  const tf = new Map<number, number>();
  for (const term of all) {
    const index = termIndex(term);
    tf.set(index, (tf.get(index) ?? 0) + 1);
  }
  const norm = K1 * (1 - B + (B * all.length) / AVG_TERMS);
  const weights = new Map<number, number>();
  for (const [index, f] of tf) {
    weights.set(index, (f * (K1 + 1)) / (f + norm));
  }
  return toSparse(weights);
}

/** A query: each distinct term once with weight 1, so the score is Σ idf × document weight. */
export function encodeQuery(text: string): SparseVector {
  return toSparse(new Map(terms(text).map((term) => [termIndex(term), 1])));
}
