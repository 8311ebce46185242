import {
  type CollectionName,
  type VectorFilter,
  type VectorHit,
  type VectorRecord,
  type WindowRemoval,
} from '../interfaces/vector-store.interface';
import { PAYLOAD_FIELDS, SPARSE_VECTOR, TEXT_KEY } from './qdrant-collections';
import { type Schemas } from './qdrant-sdk';
import { encodeDocument, type SparseVector } from './sparse-text';

/** Request-body builders and response mapping: the store's wire format in one place. */

/**
 * The store filter as Qdrant `must` conditions: keyword matches, and the time range as a
 * datetime range on `occurred_at` (stored as `toISOString()`, indexed as `datetime`). Only
 * conversations carry a time: other collections ignore the range, as on pgvector.
 */
export function toQdrantFilter(
  filter: VectorFilter | undefined,
  collection: CollectionName = 'conversations',
): Schemas['Filter'] | undefined {
  const must: Schemas['Condition'][] = [];
  if (filter?.contact_uid !== undefined) {
    must.push({ key: 'contact_uid', match: { value: filter.contact_uid } });
  }
  if (filter?.location_uids !== undefined) {
    must.push({ key: 'location_uid', match: { any: filter.location_uids } });
  }
  const range = filter?.occurred_at;
  if (range && collection === 'conversations') {
    // Normalised here: a bound that is not a date throws before any request goes out.
    const at = (t: string) => new Date(t).toISOString();
    must.push({ key: 'occurred_at', range: { gte: at(range.from), lt: at(range.to) } });
  }
  return must.length ? { must } : undefined;
}

/** An empty location list scopes to nothing (as `= ANY('{}')` does on pgvector): skip the call. */
export const scopesToNothing = (filter: VectorFilter | undefined): boolean =>
  filter?.location_uids?.length === 0;

const withPayload = (collection: CollectionName): string[] => [
  TEXT_KEY,
  ...(PAYLOAD_FIELDS[collection] as string[]),
];

/** Nearest neighbours by the dense (unnamed, Cosine) vector. */
export function denseRequest(
  collection: CollectionName,
  embedding: number[],
  topK: number,
  filter: VectorFilter | undefined,
  scoreThreshold?: number,
): Schemas['QueryRequest'] {
  return {
    query: embedding,
    filter: toQdrantFilter(filter, collection),
    limit: topK,
    ...(scoreThreshold === undefined ? {} : { score_threshold: scoreThreshold }),
    with_payload: withPayload(collection),
  };
}

/** Best BM25 matches: the sparse query scored with the collection's idf modifier. */
export function sparseRequest(
  collection: CollectionName,
  sparse: SparseVector,
  topK: number,
  filter: VectorFilter | undefined,
): Schemas['QueryRequest'] {
  return {
    query: sparse,
    using: SPARSE_VECTOR,
    filter: toQdrantFilter(filter, collection),
    limit: topK,
    with_payload: withPayload(collection),
  };
}

/**
 * The same BM25 candidates re-scored by cosine to `embedding` (a prefetch, then a dense query
 * over its results): gives each lexical hit its `similarity` without shipping vectors back.
 */
export function sparseCosineRequest(
  sparse: SparseVector,
  embedding: number[],
  topK: number,
  filter: VectorFilter | undefined,
  collection: CollectionName,
): Schemas['QueryRequest'] {
  return {
    prefetch: {
      query: sparse,
      using: SPARSE_VECTOR,
      filter: toQdrantFilter(filter, collection),
      limit: topK,
    },
    query: embedding,
    limit: topK,
    with_payload: false,
  };
}

/**
 * A record as a point: the id as given (already a content-hash UUID), the dense vector as the
 * unnamed default (`""`), the BM25 terms as the sparse vector, the text under `text`.
 * Timestamps are normalised to `toISOString()`, which is what pgvector's timestamptz returns.
 */
export function toPoint<C extends CollectionName>(record: VectorRecord<C>): Schemas['PointStruct'] {
  const payload: Record<string, unknown> = { ...record.payload, [TEXT_KEY]: record.content };
  if (typeof payload.occurred_at === 'string') {
    payload.occurred_at = new Date(payload.occurred_at).toISOString();
  }
  const sparse = encodeDocument(record.content);
  return {
    id: record.id,
    vector: sparse.indices.length
      ? { '': record.embedding, [SPARSE_VECTOR]: sparse }
      : { '': record.embedding },
    payload,
  };
}

/** A scored point as a hit, with exactly the port's payload fields (missing ones as null). */
export function toHit<C extends CollectionName>(
  collection: C,
  point: Schemas['ScoredPoint'],
): VectorHit<C> {
  const stored: Record<string, unknown> = point.payload ?? {};
  const payload: Record<string, unknown> = {};
  for (const field of PAYLOAD_FIELDS[collection] as string[]) {
    payload[field] = stored[field] ?? null;
  }
  return {
    id: String(point.id),
    content: typeof stored[TEXT_KEY] === 'string' ? stored[TEXT_KEY] : '',
    score: point.score,
    payload: payload as VectorHit<C>['payload'],
  };
}

/**
 * BM25 hits (a zero score means no shared term, which is not a lexical match), each with its
 * cosine from the re-scored list when there is one.
 */
export function toLexicalHits<C extends CollectionName>(
  collection: C,
  points: Schemas['ScoredPoint'][],
  rescored?: Schemas['ScoredPoint'][],
): VectorHit<C>[] {
  const cosine = new Map(rescored?.map((p) => [String(p.id), p.score]));
  return points
    .filter((p) => p.score > 0)
    .map((p) => {
      const hit = toHit(collection, p);
      const similarity = cosine.get(hit.id);
      return similarity === undefined ? hit : { ...hit, similarity };
    });
}

/** First record per id wins, as `ON CONFLICT DO NOTHING` does within one pgvector insert. */
export function uniqueById<R extends { id: string }>(records: R[]): R[] {
  const seen = new Set<string>();
  return records.filter((r) => !seen.has(r.id) && seen.add(r.id));
}

/**
 * The ordered batch that replaces conversation windows: upsert `fresh` first, then delete
 * the stale windows, so a conversation is never empty in between.
 */
export function windowOperations(
  fresh: VectorRecord<'conversations'>[],
  records: VectorRecord<'conversations'>[],
  removal: WindowRemoval,
): Schemas['UpdateOperation'][] {
  const keep = [
    ...new Set([...records.map((r) => r.id), ...('keep' in removal ? removal.keep : [])]),
  ];
  const operations: Schemas['UpdateOperation'][] = [];
  if (fresh.length) {
    operations.push({ upsert: { points: fresh.map(toPoint) } });
  }
  if ('ids' in removal) {
    const stale = removal.ids.filter((id) => !keep.includes(id));
    if (stale.length) {
      operations.push({ delete: { points: stale } });
    }
    return operations;
  }
  for (const key of removal.allOtherWindowsOf) {
    operations.push({
      delete: {
        filter: {
          must: [
            { key: 'contact_uid', match: { value: key.contact_uid } },
            { key: 'conversation_uid', match: { value: key.conversation_uid } },
          ],
          ...(keep.length ? { must_not: [{ has_id: keep }] } : {}),
        },
      },
    });
  }
  return operations;
}
