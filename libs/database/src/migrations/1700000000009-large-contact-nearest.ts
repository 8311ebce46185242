import { type Migration } from './migration';

/**
 * The dense leg of a contact with a large history: the nearest windows of that contact by
 * the HNSW index, with an iterative filtered scan. A function so the plan is fixed: inside
 * it sequential scans are off and the contact btree is hidden (`|| ''`), so the planner
 * cannot trade the index walk for reading every row of the table or of the contact, which
 * its generic estimates would sometimes prefer. Settings made by SET clauses hold only while
 * the function runs.
 */
export const largeContactNearest: Migration = {
  name: 'LargeContactNearest1700000000009',
  up: async (tx) => {
    await tx.exec(`
      CREATE FUNCTION conversations_nearest(q vector, contact text, locations text[], k int)
        RETURNS TABLE (id uuid, distance float8)
        LANGUAGE sql STABLE PARALLEL SAFE
        SET enable_seqscan = off
        SET hnsw.iterative_scan = relaxed_order
      AS $$
        SELECT c.id, c.embedding <=> q FROM podium_conversations c
        WHERE c.contact_uid || '' = contact
          AND (locations IS NULL OR c.location_uid = ANY(locations))
        ORDER BY c.embedding <=> q LIMIT k
      $$;`);
  },
};
