import type { components } from '../../node_modules/@qdrant/js-client-rest/dist/types/openapi/generated_schema.js' with {
  'resolution-mode': 'import',
};
import { assertIndexed, matches } from './qdrant-filter';
/**
 * The in-memory state of the fake Qdrant and its write/filter semantics: collections with an
 * unnamed dense vector (normalised at upsert for Cosine, as Qdrant does) and named sparse
 * vectors, keyword payload indexes, point ids as u64 or UUID, and `must`/`should`/`must_not`
 * filters. In strict mode (Qdrant Cloud's default) a filter on an unindexed key is refused.
 */

export type S = components['schemas'];

/** An error Qdrant would answer with `{"status":{"error":message}}`. */
export class QdrantHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface StoredPoint {
  id: string | number;
  dense?: number[];
  sparse: Map<string, Map<number, number>>;
  payload: Record<string, unknown>;
  version: number;
}

export interface FakeCollection {
  name: string;
  size: number;
  distance: S['Distance'];
  sparse: Record<string, { modifier: 'idf' | 'none' }>;
  indexes: Map<string, S['PayloadFieldSchema']>;
  points: Map<string, StoredPoint>;
}

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

/** Qdrant's canonical id: u64 as is, UUIDs lower-case hyphenated; anything else is refused. */
export function pointKey(id: S['ExtendedPointId']): string {
  if (typeof id === 'number') {
    if (!Number.isInteger(id) || id < 0) {
      throw new QdrantHttpError(400, `Format error in JSON body: invalid point id ${id}`);
    }
    return String(id);
  }
  if (!UUID.test(id)) {
    throw new QdrantHttpError(400, `Format error in JSON body: Unable to parse UUID: ${id}`);
  }
  const hex = id.replace(/-/g, '').toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const asList = <T>(value: T | T[] | null | undefined | Record<string, unknown>): T[] =>
  value === null || value === undefined ? [] : Array.isArray(value) ? value : [value as T];

export const indexType = (schema: S['PayloadFieldSchema']): string =>
  typeof schema === 'string' ? schema : schema.type;

export class FakeQdrantEngine {
  readonly collections = new Map<string, FakeCollection>();
  private version = 0;

  constructor(readonly strictMode = true) {}

  collection(name: string): FakeCollection {
    const found = this.collections.get(name);
    if (!found) {
      throw new QdrantHttpError(404, `Not found: Collection \`${name}\` doesn't exist!`);
    }
    return found;
  }

  createCollection(name: string, body: S['CreateCollection']): boolean {
    if (this.collections.has(name)) {
      throw new QdrantHttpError(409, `Wrong input: Collection \`${name}\` already exists!`);
    }
    const vectors = body.vectors as S['VectorParams'] | Record<string, unknown> | undefined;
    if (!vectors || typeof vectors.size !== 'number') {
      throw new QdrantHttpError(400, 'fake Qdrant: only an unnamed dense vector is supported');
    }
    const sparse: FakeCollection['sparse'] = {};
    for (const [vectorName, params] of Object.entries(body.sparse_vectors ?? {})) {
      sparse[vectorName] = { modifier: params?.modifier === 'idf' ? 'idf' : 'none' };
    }
    this.collections.set(name, {
      name,
      size: vectors.size,
      distance: (vectors as S['VectorParams']).distance,
      sparse,
      indexes: new Map(),
      points: new Map(),
    });
    return true;
  }

  createIndex(name: string, body: S['CreateFieldIndex']): S['UpdateResult'] {
    const collection = this.collection(name);
    if (
      !body.field_schema ||
      (typeof body.field_schema === 'object' && !('type' in body.field_schema))
    ) {
      throw new QdrantHttpError(400, 'Wrong input: field_schema is required');
    }
    collection.indexes.set(body.field_name, body.field_schema as S['PayloadFieldSchema']);
    return this.completed();
  }

  upsert(collection: FakeCollection, body: S['PointInsertOperations']): void {
    if (!('points' in body)) {
      throw new QdrantHttpError(400, 'fake Qdrant: the batch upsert form is not implemented');
    }
    // Validate every point before touching any: Qdrant rejects the request as a whole.
    const points = body.points.map((p) => this.toStored(collection, p));
    for (const point of points) {
      collection.points.set(pointKey(point.id), point);
    }
  }

  delete(collection: FakeCollection, selector: S['PointsSelector']): void {
    for (const point of this.select(collection, selector)) {
      collection.points.delete(pointKey(point.id));
    }
  }

  setPayload(collection: FakeCollection, body: S['SetPayload']): void {
    if (body.key) {
      throw new QdrantHttpError(400, 'fake Qdrant: set_payload with `key` is not implemented');
    }
    const selector: S['PointsSelector'] = body.points
      ? { points: body.points }
      : { filter: body.filter ?? {} };
    for (const point of this.select(collection, selector)) {
      Object.assign(point.payload, body.payload);
      point.version = ++this.version;
    }
  }

  /** Applies each operation in order, as `POST /points/batch` does. */
  batch(collection: FakeCollection, body: S['UpdateOperations']): S['UpdateResult'][] {
    return body.operations.map((operation) => {
      if ('upsert' in operation) {
        this.upsert(collection, operation.upsert);
      } else if ('delete' in operation) {
        this.delete(collection, operation.delete);
      } else if ('set_payload' in operation) {
        this.setPayload(collection, operation.set_payload);
      } else {
        throw new QdrantHttpError(400, 'fake Qdrant: batch operation not implemented');
      }
      return this.completed();
    });
  }

  /** Points matching `filter` (all when it is absent), checking strict-mode indexes. */
  filtered(collection: FakeCollection, filter: S['Filter'] | null | undefined): StoredPoint[] {
    const all = [...collection.points.values()];
    if (!filter) {
      return all;
    }
    if (this.strictMode) {
      assertIndexed(collection, filter);
    }
    return all.filter((p) => matches(p, filter));
  }

  info(collection: FakeCollection): S['CollectionInfo'] {
    const payloadSchema: S['CollectionInfo']['payload_schema'] = {};
    for (const [field, schema] of collection.indexes) {
      payloadSchema[field] = {
        data_type: indexType(schema) as S['PayloadSchemaType'],
        ...(typeof schema === 'object' ? { params: schema } : {}),
        points: [...collection.points.values()].filter(
          (p) => p.payload[field] !== undefined && p.payload[field] !== null,
        ).length,
      };
    }
    return {
      status: 'green',
      optimizer_status: 'ok',
      points_count: collection.points.size,
      indexed_vectors_count: 0,
      segments_count: 1,
      config: {
        params: {
          vectors: { size: collection.size, distance: collection.distance },
          sparse_vectors: collection.sparse,
          shard_number: 1,
          replication_factor: 1,
          write_consistency_factor: 1,
          on_disk_payload: true,
        },
        hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000 },
        optimizer_config: { default_segment_number: 0, flush_interval_sec: 5 },
      },
      payload_schema: payloadSchema,
    };
  }

  completed(): S['UpdateResult'] {
    return { operation_id: ++this.version, status: 'completed' };
  }

  private select(collection: FakeCollection, selector: S['PointsSelector']): StoredPoint[] {
    if ('points' in selector) {
      return selector.points
        .map((id) => collection.points.get(pointKey(id)))
        .filter((p): p is StoredPoint => p !== undefined);
    }
    return this.filtered(collection, selector.filter);
  }

  private toStored(collection: FakeCollection, point: S['PointStruct']): StoredPoint {
    const named: Record<string, unknown> = Array.isArray(point.vector)
      ? { '': point.vector }
      : point.vector;
    const stored: StoredPoint = {
      // Qdrant answers with the canonical form of the id it was given.
      id: typeof point.id === 'number' ? point.id : pointKey(point.id),
      sparse: new Map(),
      payload: { ...(point.payload ?? {}) },
      version: ++this.version,
    };
    for (const [vectorName, value] of Object.entries(named)) {
      if (vectorName === '') {
        const dense = value as number[];
        if (dense.length !== collection.size) {
          throw new QdrantHttpError(
            400,
            `Wrong input: Vector dimension error: expected dim: ${collection.size}, got ${dense.length}`,
          );
        }
        const norm = Math.hypot(...dense);
        stored.dense =
          collection.distance === 'Cosine' && norm > 0 ? dense.map((x) => x / norm) : dense;
      } else if (collection.sparse[vectorName]) {
        const { indices, values } = value as S['SparseVector'];
        if (indices.length !== values.length || new Set(indices).size !== indices.length) {
          throw new QdrantHttpError(
            400,
            'Validation error in JSON body: sparse vector indices must be unique and match values',
          );
        }
        stored.sparse.set(vectorName, new Map(indices.map((i, n) => [i, values[n]])));
      } else {
        throw new QdrantHttpError(
          400,
          `Wrong input: Not existing vector name error: ${vectorName}`,
        );
      }
    }
    if (!stored.dense) {
      throw new QdrantHttpError(400, 'Wrong input: Not existing vector name error: ');
    }
    return stored;
  }
}
