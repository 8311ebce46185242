import {
  type FakeCollection,
  type FakeQdrantEngine,
  pointKey,
  QdrantHttpError,
  type S,
  type StoredPoint,
} from './qdrant-engine';

/**
 * The Query API's semantics, as the fake serves them: dense nearest by cosine (on vectors
 * normalised at upsert), sparse dot product with the collection's `idf` modifier
 * (ln((N − n + 0.5)/(n + 0.5) + 1) over the collection, like BM25's idf) returning only points
 * that share a term, `prefetch` (a query over the union of the prefetched points), RRF fusion
 * (Σ weight/(k + 0-based rank), Qdrant's default k = 2), `score_threshold`, filters, `limit`
 * (default 10), `offset` and payload selection. Ties break by id, for repeatable tests.
 */

interface Scored {
  point: StoredPoint;
  score: number;
}

const DEFAULT_LIMIT = 10;
const DEFAULT_RRF_K = 2;

const isSparse = (v: unknown): v is S['SparseVector'] =>
  typeof v === 'object' && v !== null && 'indices' in v && 'values' in v;

const isDense = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'number');

const byScore = (a: Scored, b: Scored) =>
  b.score - a.score || pointKey(a.point.id).localeCompare(pointKey(b.point.id));

function idf(collection: FakeCollection, vectorName: string, index: number): number {
  const holders = [...collection.points.values()].filter((p) => p.sparse.has(vectorName));
  const n = holders.filter((p) => p.sparse.get(vectorName)?.has(index)).length;
  return Math.log((holders.length - n + 0.5) / (n + 0.5) + 1);
}

function scoreDense(
  collection: FakeCollection,
  query: number[],
  pool: StoredPoint[],
  using?: string | null,
): Scored[] {
  if (using) {
    throw new QdrantHttpError(400, `Wrong input: Not existing vector name error: ${using}`);
  }
  if (query.length !== collection.size) {
    throw new QdrantHttpError(
      400,
      `Wrong input: Vector dimension error: expected dim: ${collection.size}, got ${query.length}`,
    );
  }
  const norm = Math.hypot(...query);
  const q = collection.distance === 'Cosine' && norm > 0 ? query.map((x) => x / norm) : query;
  return pool.map((point) => ({
    point,
    score: (point.dense ?? []).reduce((sum, x, i) => sum + x * q[i], 0),
  }));
}

function scoreSparse(
  collection: FakeCollection,
  query: S['SparseVector'],
  pool: StoredPoint[],
  using?: string | null,
): Scored[] {
  const params = using ? collection.sparse[using] : undefined;
  if (!using || !params) {
    throw new QdrantHttpError(400, `Wrong input: Not existing vector name error: ${using ?? ''}`);
  }
  const weights = query.indices.map((index, i) => ({
    index,
    weight: query.values[i] * (params.modifier === 'idf' ? idf(collection, using, index) : 1),
  }));
  return pool.flatMap((point) => {
    const doc = point.sparse.get(using);
    const shared = weights.filter((w) => doc?.has(w.index));
    return shared.length
      ? [{ point, score: shared.reduce((sum, w) => sum + w.weight * (doc?.get(w.index) ?? 0), 0) }]
      : [];
  });
}

function fuse(lists: Scored[][], params: S['Rrf']): Scored[] {
  const k = params.k ?? DEFAULT_RRF_K;
  const fused = new Map<string, Scored>();
  lists.forEach((list, n) => {
    const weight = params.weights?.[n] ?? 1;
    list.forEach(({ point }, rank) => {
      const key = pointKey(point.id);
      const entry = fused.get(key) ?? { point, score: 0 };
      entry.score += weight / (k + rank);
      fused.set(key, entry);
    });
  });
  return [...fused.values()];
}

/** Evaluates one query or prefetch level; `Prefetch` is the recursive shape of both. */
export function evaluate(
  engine: FakeQdrantEngine,
  collection: FakeCollection,
  request: S['Prefetch'],
): Scored[] {
  const prefetches = request.prefetch
    ? Array.isArray(request.prefetch)
      ? request.prefetch
      : [request.prefetch as S['Prefetch']]
    : [];
  const lists = prefetches.map((p) => evaluate(engine, collection, p));
  const allowed = new Set(
    engine.filtered(collection, request.filter as S['Filter'] | null).map((p) => pointKey(p.id)),
  );
  const pool = (
    prefetches.length
      ? [...new Map(lists.flat().map((s) => [pointKey(s.point.id), s.point])).values()]
      : [...collection.points.values()]
  ).filter((p) => allowed.has(pointKey(p.id)));

  const query = request.query as unknown;
  const target =
    typeof query === 'object' && query !== null && 'nearest' in query ? query.nearest : query;
  let scored: Scored[];
  if (isDense(target)) {
    scored = scoreDense(collection, target, pool, request.using);
  } else if (isSparse(target)) {
    scored = scoreSparse(collection, target, pool, request.using);
  } else if (typeof query === 'object' && query !== null && ('fusion' in query || 'rrf' in query)) {
    if (!prefetches.length) {
      throw new QdrantHttpError(400, 'Bad request: Fusion queries need at least one prefetch');
    }
    if ('fusion' in query && query.fusion !== 'rrf') {
      throw new QdrantHttpError(400, 'fake Qdrant: only rrf fusion is implemented');
    }
    const params = 'rrf' in query ? (query.rrf as S['Rrf']) : {};
    scored = fuse(
      lists.map((l) => l.filter((s) => allowed.has(pointKey(s.point.id)))),
      params,
    );
  } else {
    throw new QdrantHttpError(400, `fake Qdrant: query not implemented: ${JSON.stringify(query)}`);
  }
  const threshold = request.score_threshold;
  return scored
    .filter((s) => threshold === null || threshold === undefined || s.score >= threshold)
    .sort(byScore)
    .slice(0, request.limit ?? DEFAULT_LIMIT);
}

function selectPayload(
  payload: Record<string, unknown>,
  selector: S['WithPayloadInterface'] | null | undefined,
): S['Payload'] | undefined {
  if (!selector) {
    return undefined;
  }
  if (selector === true) {
    return payload;
  }
  const keys = Array.isArray(selector)
    ? selector
    : 'include' in selector
      ? selector.include
      : Object.keys(payload).filter((k) => !selector.exclude.includes(k));
  return Object.fromEntries(keys.filter((k) => k in payload).map((k) => [k, payload[k]]));
}

/** `POST /points/query` (and each search of `/points/query/batch`). */
export function query(
  engine: FakeQdrantEngine,
  collection: FakeCollection,
  request: S['QueryRequest'],
): S['QueryResponse'] {
  if (request.with_vector) {
    throw new QdrantHttpError(400, 'fake Qdrant: with_vector is not implemented');
  }
  const offset = request.offset ?? 0;
  const limit = request.limit ?? DEFAULT_LIMIT;
  const hits = evaluate(engine, collection, { ...request, limit: offset + limit }).slice(offset);
  return {
    points: hits.map(({ point, score }) => {
      const payload = selectPayload(
        point.payload,
        request.with_payload as S['WithPayloadInterface'],
      );
      return { id: point.id, version: point.version, score, ...(payload ? { payload } : {}) };
    }),
  };
}

/**
 * `POST /points/scroll`: the filtered points in id order from `offset` (a point id), a page of
 * `limit`, and the id the next page starts at.
 */
export function scroll(
  engine: FakeQdrantEngine,
  collection: FakeCollection,
  request: S['ScrollRequest'] | undefined,
): S['ScrollResult'] {
  const points = engine
    .filtered(collection, request?.filter)
    .sort((a, b) => (pointKey(a.id) < pointKey(b.id) ? -1 : 1));
  const from =
    request?.offset === undefined || request.offset === null
      ? 0
      : points.findIndex((p) => pointKey(p.id) >= pointKey(request.offset as S['ExtendedPointId']));
  const limit = request?.limit ?? DEFAULT_LIMIT;
  const page = from < 0 ? [] : points.slice(from, from + limit);
  const next = from < 0 ? undefined : points[from + limit];
  return {
    points: page.map((point) => {
      const payload = selectPayload(
        point.payload,
        (request?.with_payload ?? true) as S['WithPayloadInterface'],
      );
      return { id: point.id, ...(payload ? { payload } : {}) };
    }),
    next_page_offset: next ? next.id : null,
  };
}

/** `POST /points` (retrieve by ids): the ones that exist, in request order. */
export function retrieve(collection: FakeCollection, request: S['PointRequest']): S['Record'][] {
  return request.ids.flatMap((id) => {
    const point = collection.points.get(pointKey(id));
    if (!point) {
      return [];
    }
    const payload = selectPayload(
      point.payload,
      (request.with_payload ?? true) as S['WithPayloadInterface'],
    );
    return [{ id: point.id, ...(payload ? { payload } : {}) }];
  });
}
