import { type SqlExecutor } from '@app/database';
import { Redis } from 'ioredis';

import { rawClient } from './qdrant-stores';

/** Where a needle was found: `table.column`, `index name`, or `redis key`. */
export interface Residue {
  where: string;
  needle: string;
}

/**
 * Every text-like column of every table in the schema (found through information_schema, so
 * a table added later is scanned too), and every index definition (a per-contact partial
 * index names its contact), searched for each needle.
 */
export async function scanDatabase(
  db: SqlExecutor,
  needles: readonly string[],
): Promise<Residue[]> {
  const columns = await db.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
     JOIN information_schema.tables t
       ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
       AND (c.data_type IN ('text', 'character varying', 'character', 'json', 'jsonb')
         OR (c.data_type = 'ARRAY' AND c.udt_name IN ('_text', '_varchar')))
     ORDER BY 1, 2`,
  );
  const found: Residue[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    for (const needle of needles) {
      const rows = await db.query(
        `SELECT 1 FROM "${table}" WHERE strpos("${column}"::text, $1) > 0 LIMIT 1`,
        [needle],
      );
      if (rows.length) {
        found.push({ where: `${table}.${column}`, needle });
      }
    }
  }
  const indexes = await db.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema()`,
  );
  for (const { indexname, indexdef } of indexes) {
    for (const needle of needles.filter((n) => indexdef.includes(n))) {
      found.push({ where: `index ${indexname}`, needle });
    }
  }
  return found;
}

/** Every key and string value in a Redis server, searched for each needle. */
export async function scanRedis(url: string, needles: readonly string[]): Promise<Residue[]> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    const found: Residue[] = [];
    for (const key of await redis.keys('*')) {
      const type = await redis.type(key);
      const value = type === 'string' ? ((await redis.get(key)) ?? '') : '';
      for (const needle of needles) {
        if (key.includes(needle) || value.includes(needle)) {
          found.push({ where: `redis ${type} key`, needle });
        }
      }
    }
    return found;
  } finally {
    redis.disconnect();
  }
}

/** Every point's payload (its text and fields) in each Qdrant collection, searched for each needle. */
export async function scanQdrant(
  target: { url: string; apiKey?: string },
  collections: readonly string[],
  needles: readonly string[],
): Promise<Residue[]> {
  const client = rawClient(target);
  const found: Residue[] = [];
  for (const name of collections) {
    let offset: string | number | null | undefined;
    do {
      const page = await client.scroll(name, { limit: 256, offset, with_payload: true });
      for (const point of page.points) {
        const text = `${String(point.id)} ${JSON.stringify(point.payload ?? {})}`;
        for (const needle of needles.filter((n) => text.includes(n))) {
          found.push({ where: `qdrant ${name}`, needle });
        }
      }
      offset = page.next_page_offset as string | number | null | undefined;
    } while (offset !== null && offset !== undefined);
  }
  return found;
}
