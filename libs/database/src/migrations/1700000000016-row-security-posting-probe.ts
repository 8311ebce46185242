import { type Migration } from './migration';

// Literal SQL: a migration is a frozen snapshot and must not follow later renames.
const WITH_ROW = `((SELECT rls_every_location()) OR EXISTS (SELECT 1 FROM podium_conversations d
  WHERE d.id = podium_conversations_terms.doc_id OFFSET 0))`;

/**
 * Migration 15's postings policy checked each posting's window with an EXISTS that the
 * planner may turn into a hashed subplan: for a location-bound search across contacts it read
 * every window of the caller's locations into a hash, once per statement (a sequential scan
 * that grows with the store). `OFFSET 0` keeps the EXISTS a probe by id per posting read,
 * whose count the search already bounds (postings per query term).
 */
export const rowSecurityPostingProbe: Migration = {
  name: 'RowSecurityPostingProbe1700000000016',
  up: (tx) =>
    tx.exec(`
      ALTER POLICY scope_read ON podium_conversations_terms USING ${WITH_ROW};
      ALTER POLICY scope_update ON podium_conversations_terms USING ${WITH_ROW};
      ALTER POLICY scope_delete ON podium_conversations_terms USING ${WITH_ROW};`),
};
