import { FOLLOW_INTERVAL_MS, type SqlExecutor } from '@app/database';
import { toVectorLiteral } from '@app/vector';

import { VECTOR_TABLES } from './reembed-schema';

/**
 * Rows written this long before the switch are swept too: a write whose transaction began
 * before the switch committed carries that earlier `created_at`.
 */
const SWEEP_MARGIN = '60 seconds';
/** Replicas poll the record each {@link FOLLOW_INTERVAL_MS}; the sweep waits two and a half. */
const SWEEP_AFTER_MS = FOLLOW_INTERVAL_MS * 2.5;

export interface ResweepOptions {
  database: SqlExecutor;
  embed(texts: string[]): Promise<number[][]>;
  batch: number;
}

/**
 * A model change at the same dimension: a replica that has not read the new record yet
 * writes old-model vectors the new column accepts (a different size would be refused and
 * retried). Once every replica has polled, the rows written around the switch are embedded
 * again with the target model (the same text gives the same vector, so a row that was right
 * stays right). Returns the rows rewritten.
 */
export async function resweepSwitch(options: ResweepOptions, switchedAt: string): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, SWEEP_AFTER_MS));
  const { database: db, batch } = options;
  let rewritten = 0;
  for (const table of VECTOR_TABLES) {
    let after = '00000000-0000-0000-0000-000000000000';
    for (;;) {
      const rows = await db.query<{ id: string; content: string }>(
        `SELECT id, content FROM ${table}
         WHERE created_at >= $1::timestamptz - interval '${SWEEP_MARGIN}' AND id > $2
         ORDER BY id LIMIT $3`,
        [switchedAt, after, batch],
      );
      if (rows.length === 0) {
        break;
      }
      const vectors = await options.embed(rows.map((r) => r.content));
      rewritten += await db.execute(
        `UPDATE ${table} t SET embedding = x.v::vector
         FROM unnest($1::uuid[], $2::text[], $3::text[]) AS x(id, content, v)
         WHERE t.id = x.id AND t.content = x.content`,
        [rows.map((r) => r.id), rows.map((r) => r.content), vectors.map(toVectorLiteral)],
      );
      after = rows[rows.length - 1].id;
    }
  }
  return rewritten;
}
