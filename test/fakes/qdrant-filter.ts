import {
  asList,
  type FakeCollection,
  indexType,
  pointKey,
  QdrantHttpError,
  type S,
  type StoredPoint,
} from './qdrant-engine';

/**
 * Filter semantics of the fake Qdrant: `must` (all), `should` (at least one, when present),
 * `must_not` (none), over `match: {value}` / `match: {any}` on keyword payloads (array values
 * match when any element does), `range` (numbers, or RFC 3339 strings compared as instants, as
 * Qdrant's datetime range does; a value that is neither never matches), `has_id`, and nested
 * filters. In strict mode, as on Qdrant Cloud, a match on a key without a keyword index, or a
 * range on a key without a numeric or datetime index, is refused with Qdrant's message.
 */

const RANGE_INDEXES = ['integer', 'float', 'datetime'];

export function assertIndexed(collection: FakeCollection, filter: S['Filter']): void {
  for (const condition of [
    ...asList(filter.must),
    ...asList(filter.should),
    ...asList(filter.must_not),
  ]) {
    const c = condition;
    if ('key' in c && 'match' in c) {
      const schema = collection.indexes.get(c.key);
      if (!schema || indexType(schema) !== 'keyword') {
        throw new QdrantHttpError(
          400,
          `Bad request: Index required but not found for "${c.key}" of one of the following types: [keyword]. Help: Create an index for this key or use a different filter.`,
        );
      }
    } else if ('key' in c && 'range' in c) {
      const schema = collection.indexes.get(c.key);
      if (!schema || !RANGE_INDEXES.includes(indexType(schema))) {
        throw new QdrantHttpError(
          400,
          `Bad request: Index required but not found for "${c.key}" of one of the following types: [${RANGE_INDEXES.join(', ')}]. Help: Create an index for this key or use a different filter.`,
        );
      }
    } else if (!('has_id' in c) && ('must' in c || 'should' in c || 'must_not' in c)) {
      assertIndexed(collection, c);
    }
  }
}

export function matches(point: StoredPoint, filter: S['Filter']): boolean {
  if (filter.min_should) {
    throw new QdrantHttpError(400, 'fake Qdrant: min_should is not implemented');
  }
  const must = asList<S['Condition']>(filter.must);
  const should = asList<S['Condition']>(filter.should);
  const mustNot = asList<S['Condition']>(filter.must_not);
  return (
    must.every((c) => condition(point, c)) &&
    (should.length === 0 || should.some((c) => condition(point, c))) &&
    !mustNot.some((c) => condition(point, c))
  );
}

function condition(point: StoredPoint, condition: S['Condition']): boolean {
  if ('has_id' in condition) {
    const key = pointKey(point.id);
    return condition.has_id.some((id) => pointKey(id) === key);
  }
  if ('key' in condition && 'match' in condition && condition.match) {
    const values = asList(
      point.payload[condition.key] as S['ValueVariants'] | S['ValueVariants'][],
    );
    const match = condition.match;
    if ('value' in match) {
      return values.some((v) => v === match.value);
    }
    if ('any' in match) {
      return values.some((v) => (match.any as S['ValueVariants'][]).includes(v));
    }
    throw new QdrantHttpError(400, 'fake Qdrant: only match value/any is implemented');
  }
  if ('key' in condition && 'range' in condition && condition.range) {
    const values = asList(point.payload[condition.key]);
    return values.some((v) => inRange(v, condition.range as Record<string, unknown>));
  }
  if ('must' in condition || 'should' in condition || 'must_not' in condition) {
    return matches(point, condition);
  }
  throw new QdrantHttpError(
    400,
    `fake Qdrant: condition not implemented: ${JSON.stringify(condition)}`,
  );
}

/** Numbers compare as numbers; strings (both sides) as the instants they name. */
function inRange(value: unknown, range: Record<string, unknown>): boolean {
  const asNumber = (x: unknown): number =>
    typeof x === 'number' ? x : typeof x === 'string' ? Date.parse(x) : Number.NaN;
  const v = asNumber(value);
  if (Number.isNaN(v)) {
    return false;
  }
  const bound = (key: string, holds: (b: number) => boolean): boolean => {
    const raw = range[key];
    if (raw === undefined || raw === null) {
      return true;
    }
    const b = asNumber(raw);
    if (Number.isNaN(b)) {
      throw new QdrantHttpError(400, `Format error in JSON body: invalid range bound ${key}`);
    }
    return holds(b);
  };
  return (
    bound('gt', (b) => v > b) &&
    bound('gte', (b) => v >= b) &&
    bound('lt', (b) => v < b) &&
    bound('lte', (b) => v <= b)
  );
}
