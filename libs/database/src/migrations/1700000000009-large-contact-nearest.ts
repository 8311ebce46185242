import { type Migration } from './migration';

/**
 * A contact with a large history gets its own HNSW index, partial on its id
 * (`large_contact_indexes` lists them; the store builds them in the background), so its
 * dense leg walks a graph of its own windows only: the cost depends neither on the size of
 * its history (no exact sort over all of it) nor on the corpus (no filtered walk through
 * everyone's windows, which measured ~15 buffer reads per candidate).
 *
 * `conversations_nearest()` runs that search with a fixed plan: the contact id is a literal
 * (a partial index only matches a literal), and sequential scans and sorts are off inside the
 * function, so the planner cannot trade the walk for reading every row of the contact. JIT is
 * off: its compile costs hundreds of milliseconds on large cost estimates.
 */
export const largeContactNearest: Migration = {
  name: 'LargeContactNearest1700000000009',
  up: async (tx) => {
    await tx.exec(`
      CREATE TABLE large_contact_indexes (contact_uid text PRIMARY KEY,
        index_name text NOT NULL UNIQUE, ready boolean NOT NULL DEFAULT false,
        claimed_at timestamptz NOT NULL DEFAULT now());
      CREATE FUNCTION conversations_nearest(q vector, contact text, locations text[], k int)
        RETURNS TABLE (id uuid, distance float8)
        LANGUAGE plpgsql STABLE
        SET enable_seqscan = off
        SET enable_sort = off
        SET jit = off
        SET hnsw.iterative_scan = relaxed_order
      AS $$
      BEGIN
        RETURN QUERY EXECUTE format(
          'SELECT c.id, (c.embedding <=> $1)::float8 FROM podium_conversations c
           WHERE c.contact_uid = %L AND ($2::text[] IS NULL OR c.location_uid = ANY($2))
           ORDER BY c.embedding <=> $1 LIMIT $3', contact)
          USING q, locations, k;
      END $$;`);
  },
};
