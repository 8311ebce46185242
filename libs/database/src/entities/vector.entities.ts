import { EntitySchema, type EntitySchemaColumnOptions } from 'typeorm';

import { vectorColumnType } from '../vector-column';

type Columns = Record<string, EntitySchemaColumnOptions>;

const text = (nullable = false): EntitySchemaColumnOptions => ({ type: 'text', nullable });

/**
 * The vector tables as TypeORM schemas, so the whole schema reads in one place. Their
 * `vector(N)` column takes the embedder's dimension, known only from config, hence a
 * factory rather than decorated classes. The search hot path still queries these tables with
 * raw prepared SQL (binary query vector, BM25 postings): these schemas describe, not serve.
 */
export function vectorEntities(dimension: number): EntitySchema[] {
  const documentColumns = (extra: Columns): Columns => ({
    id: { type: 'uuid', primary: true },
    content: text(),
    embedding: { type: vectorColumnType(dimension), length: dimension },
    created_at: { type: 'timestamptz', default: () => 'now()' },
    term_count: { type: 'int', default: 0 },
    ...extra,
  });
  const termColumns: Columns = {
    doc_id: { type: 'uuid', primary: true },
    term: { type: 'text', primary: true },
    tf: { type: 'smallint' },
    contact_uid: text(true),
    doc_len: { type: 'smallint' },
    impact: { type: 'real' },
  };
  const kb = { topic_id: text(), title: text(), theme_id: text(true) };
  const documents: Record<string, Columns> = {
    podium_conversations: documentColumns({
      contact_uid: text(),
      location_uid: text(true),
      conversation_uid: text(),
      channel: text(),
      occurred_at: { type: 'timestamptz' },
      // When the window was written: a forget hides every window stored before it.
      stored_at: { type: 'timestamptz', default: () => 'now()' },
    }),
    kb_source_chunks: documentColumns({ ...kb, chunk_index: { type: 'int' } }),
    kb_topic_summaries: documentColumns(kb),
  };
  return Object.entries(documents).flatMap(([table, columns]) => [
    new EntitySchema({ name: table, tableName: table, columns }),
    new EntitySchema({ name: `${table}_terms`, tableName: `${table}_terms`, columns: termColumns }),
  ]);
}
