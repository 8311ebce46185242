import {
  type CollectionName,
  type VectorFilter,
  type VectorHit,
} from '../interfaces/vector-store.interface';
import { PAYLOAD_FIELDS, SPARSE_VECTOR, TEXT_KEY } from './qdrant-collections';
import { toHit, toQdrantFilter } from './qdrant-requests';
import { type QdrantClient, type Schemas } from './qdrant-sdk';
import { encodeDocument, type SparseVector, termIndex, terms } from './sparse-text';

/**
 * BM25 over a location scope with the scope's own statistics, as pgvector's `bm25Ctes` does.
 * Qdrant's `modifier: idf` counts the whole collection, so its score would tell a
 * location-bound caller how often other tenants use a word (explain shows `bm25_score`). The
 * scoped search therefore asks Qdrant only which of the scope's documents hold each query
 * term, and scores them here: idf from the scope (N: its documents; df: its postings read,
 * up to {@link POSTINGS_PER_TERM}), times each document's term weight re-encoded from its
 * text. No number in the answer depends on a document outside the scope.
 */

/** Postings read per query term, as on pgvector: a term's df is counted up to this. */
export const POSTINGS_PER_TERM = 1000;

/**
 * Query terms a scoped search reads postings for (two requests each, in one batch): a long
 * transcript keeps its first this many distinct terms.
 */
export const SCOPED_QUERY_TERMS = 48;

/** The query's sparse vector, bounded to its first SCOPED_QUERY_TERMS distinct terms. */
export function scopedQuery(text: string): SparseVector {
  const first = [...new Set(terms(text))].slice(0, SCOPED_QUERY_TERMS);
  const indices = [...new Set(first.map(termIndex))].sort((a, b) => a - b);
  return { indices, values: indices.map(() => 1) };
}

/** Lucene's non-negative idf, as Qdrant's modifier and pgvector's BM25 compute it. */
export const idf = (n: number, df: number): number => Math.log(1 + (n - df + 0.5) / (df + 0.5));

const single = (index: number): SparseVector => ({ indices: [index], values: [1] });

/**
 * Round one, per distinct query term: the scope's postings of the term (ids and Qdrant's
 * scores, no payload), and its best posting with its text, to divide Qdrant's idf back out
 * when ranking. The whole list goes in one `query/batch`.
 */
export function termRequests(
  sparse: SparseVector,
  filter: VectorFilter | undefined,
  collection: CollectionName = 'conversations',
): Schemas['QueryRequest'][] {
  const where = toQdrantFilter(filter, collection);
  return sparse.indices.flatMap((index) => [
    {
      query: single(index),
      using: SPARSE_VECTOR,
      filter: where,
      limit: POSTINGS_PER_TERM,
      with_payload: false,
    },
    {
      query: single(index),
      using: SPARSE_VECTOR,
      filter: where,
      limit: 1,
      with_payload: [TEXT_KEY],
    },
  ]);
}

/** The weight `text` gives the term at `index` (0 when it does not hold it). */
function weightOf(text: unknown, index: number): number {
  const doc = encodeDocument(typeof text === 'string' ? text : '');
  const at = doc.indices.indexOf(index);
  return at < 0 ? 0 : doc.values[at];
}

/** What round one found: each term's scope idf, and the candidates ranked by it. */
export interface ScopedRanking {
  idf: Map<number, number>;
  /** Candidate ids, best first (by Qdrant's scores with its idf replaced by the scope's). */
  ranked: string[];
}

/**
 * Ranks the candidates of `answers` (as {@link termRequests} ordered them) for a scope of
 * `scopeDocs` documents. A posting's Qdrant score is its idf times the document's weight;
 * the best posting's weight, re-encoded from its text, gives that idf.
 */
export function rankScoped(
  indices: readonly number[],
  answers: readonly Schemas['QueryResponse'][],
  scopeDocs: number,
  limit: number,
): ScopedRanking {
  const weights = new Map<number, number>();
  const scores = new Map<string, number>();
  indices.forEach((index, i) => {
    const postings = answers[2 * i].points.filter((p) => p.score > 0);
    const [best] = answers[2 * i + 1].points;
    const bestWeight = best ? weightOf(best.payload?.[TEXT_KEY], index) : 0;
    if (!postings.length || !best || best.score <= 0 || bestWeight <= 0) {
      return;
    }
    const scopeIdf = idf(Math.max(scopeDocs, postings.length), postings.length);
    weights.set(index, scopeIdf);
    for (const p of postings) {
      const id = String(p.id);
      scores.set(id, (scores.get(id) ?? 0) + (scopeIdf * (p.score * bestWeight)) / best.score);
    }
  });
  const ranked = [...scores]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .slice(0, limit)
    .map(([id]) => id);
  return { idf: weights, ranked };
}

/**
 * Round two: the ranked candidates with their payload, and their cosine to `embedding` when
 * one is given (a dense query restricted to their ids).
 */
export function candidatesRequest(
  collection: CollectionName,
  ids: readonly string[],
  embedding: number[],
): Schemas['QueryRequest'] {
  return {
    query: embedding,
    filter: { must: [{ has_id: [...ids] }] },
    limit: ids.length,
    with_payload: [TEXT_KEY, ...(PAYLOAD_FIELDS[collection] as string[])],
  };
}

/**
 * The exact score of a candidate from its own text: Σ scope idf × term weight. Recomputed
 * here rather than kept from round one, whose float32 scores carry Qdrant's idf in their
 * rounding.
 */
export function scopedScore(text: unknown, idfs: ReadonlyMap<number, number>): number {
  const doc = encodeDocument(typeof text === 'string' ? text : '');
  let score = 0;
  doc.indices.forEach((index, i) => {
    score += (idfs.get(index) ?? 0) * doc.values[i];
  });
  return score;
}

/** The Qdrant calls a scoped search makes, bound to one collection (the store's `call` wraps them). */
export interface ScopedCalls {
  batch(searches: Schemas['QueryRequest'][]): Promise<Schemas['QueryResponse'][]>;
  count(filter: Schemas['Filter'] | undefined): Promise<number>;
  query(request: Schemas['QueryRequest']): Promise<Schemas['QueryResponse']>;
  retrieve(ids: string[], withPayload: string[]): Promise<Schemas['Record'][]>;
}

/** {@link ScopedCalls} on one collection; `call` maps a failure as the store does. */
export function scopedCalls(
  client: QdrantClient,
  name: string,
  call: <T>(work: () => Promise<T>) => Promise<T>,
): ScopedCalls {
  return {
    batch: (searches) => call(() => client.queryBatch(name, { searches })),
    count: async (filter) => (await call(() => client.count(name, { exact: true, filter }))).count,
    query: (body) => call(() => client.query(name, body)),
    retrieve: (ids, payload) =>
      call(() => client.retrieve(name, { ids, with_payload: payload, with_vector: false })),
  };
}

export interface ScopedRequest {
  sparse: SparseVector;
  topK: number;
  filter: VectorFilter;
  embedding?: number[];
}

/**
 * A location-scoped BM25 list in two round trips: the term postings (with `before`, the
 * caller's other searches, in the same batch) and the scope's size, then the best candidates'
 * payloads and cosines. Returns the lexical hits and the answers to `before`.
 */
export async function scopedLexicalSearch<C extends CollectionName>(
  calls: ScopedCalls,
  collection: C,
  request: ScopedRequest,
  before: Schemas['QueryRequest'][] = [],
): Promise<{ lexical: VectorHit<C>[]; before: Schemas['QueryResponse'][] }> {
  const { sparse, topK, filter, embedding } = request;
  const [answers, scopeDocs] = await Promise.all([
    calls.batch([...before, ...termRequests(sparse, filter, collection)]),
    // N is the scope's, not the time range's (as on pgvector): a range only limits the postings.
    calls.count(toQdrantFilter({ ...filter, occurred_at: undefined }, collection)),
  ]);
  const earlier = answers.slice(0, before.length);
  const { idf: idfs, ranked } = rankScoped(
    sparse.indices,
    answers.slice(before.length),
    scopeDocs,
    topK,
  );
  if (!ranked.length) {
    return { lexical: [], before: earlier };
  }
  const points: Schemas['ScoredPoint'][] = embedding
    ? (await calls.query(candidatesRequest(collection, ranked, embedding))).points
    : (await calls.retrieve(ranked, [TEXT_KEY, ...(PAYLOAD_FIELDS[collection] as string[])])).map(
        (p) => ({ ...p, version: 0, score: 0 }),
      );
  const lexical = points
    .map((p) => {
      const hit = { ...toHit(collection, p), score: scopedScore(p.payload?.[TEXT_KEY], idfs) };
      return embedding ? { ...hit, similarity: p.score } : hit;
    })
    .filter((h) => h.score > 0)
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  return { lexical, before: earlier };
}
