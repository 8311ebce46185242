import { type Migration } from './migration';

/**
 * Builds the first migration for a given embedding dimension. pgvector columns are typed
 * `vector(N)`, so the dimension is part of the schema; the store refuses to boot when the
 * configured embedder disagrees with what is on disk.
 */
export function initialSchemaMigration(dimension: number): Migration {
  const common = (table: string) => `
    id uuid PRIMARY KEY,
    content text NOT NULL,
    embedding vector(${dimension}) NOT NULL,
    -- generated so lexical retrieval can never drift from the stored text
    tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', content)) STORED,
    created_at timestamptz NOT NULL DEFAULT now(),
    CONSTRAINT ${table}_content_not_blank CHECK (length(btrim(content)) > 0)`;

  const vectorIndexes = (table: string) => `
    -- HNSW serves the unfiltered case; per-contact queries use the btree plus an exact sort.
    CREATE INDEX ${table}_embedding_hnsw ON ${table} USING hnsw (embedding vector_cosine_ops);
    CREATE INDEX ${table}_tsv_gin ON ${table} USING gin (tsv);`;

  // Literal names: a migration is a frozen snapshot and must not follow later renames.
  const c = 'podium_conversations';
  const s = 'kb_source_chunks';
  const t = 'kb_topic_summaries';

  return {
    name: 'InitialSchema1700000000000',
    up: async (tx) => {
      await tx.exec(`CREATE EXTENSION IF NOT EXISTS vector`);
      await tx.exec(`
        CREATE TABLE ${c} (${common(c)},
          contact_uid text NOT NULL,
          location_uid text,
          conversation_uid text NOT NULL,
          channel text NOT NULL,
          occurred_at timestamptz NOT NULL);
        CREATE INDEX ${c}_contact_uid ON ${c} (contact_uid);
        CREATE INDEX ${c}_location_uid ON ${c} (location_uid);
        ${vectorIndexes(c)}`);
      await tx.exec(`
        CREATE TABLE ${s} (${common(s)},
          topic_id text NOT NULL,
          title text NOT NULL,
          theme_id text,
          chunk_index int NOT NULL);
        CREATE INDEX ${s}_topic_id ON ${s} (topic_id);
        ${vectorIndexes(s)}`);
      await tx.exec(`
        CREATE TABLE ${t} (${common(t)},
          topic_id text NOT NULL,
          title text NOT NULL,
          theme_id text);
        CREATE INDEX ${t}_topic_id ON ${t} (topic_id);
        ${vectorIndexes(t)}`);
    },
  };
}
