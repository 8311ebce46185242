import { type SqlExecutor } from '../interfaces/sql-client.interface';
import { cosineOpclass, vectorColumnType } from '../vector-column';
import { type Migration } from './migration';

/**
 * The first migration at a dimension HNSW cannot index as `vector` (over 2,000): the same
 * step with its `vector(N)` columns built as `halfvec(N)` and its indexes with the halfvec
 * operator class. The frozen step itself is unchanged, and so is every store it could ever
 * build (at such a dimension it failed at its first index), so no two stores of one version
 * differ. At 2,000 or less the step is returned as is.
 */
export function wideVectors(step: Migration, dimension: number): Migration {
  if (vectorColumnType(dimension) === 'vector') {
    return step;
  }
  const rewrite = (sql: string) =>
    sql
      .replaceAll(`vector(${dimension})`, `${vectorColumnType(dimension)}(${dimension})`)
      .replaceAll('vector_cosine_ops', cosineOpclass(dimension));
  const wide = (tx: SqlExecutor): SqlExecutor => ({
    query: <T>(sql: string, params?: unknown[]) => tx.query<T>(rewrite(sql), params),
    execute: (sql, params) => tx.execute(rewrite(sql), params),
    exec: (script) => tx.exec(rewrite(script)),
  });
  return { name: step.name, up: (tx) => step.up(wide(tx)) };
}
