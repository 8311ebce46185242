import { type Migration } from './migration';

/**
 * Erasure by membership, not by the caller's clock (issue 36):
 * - `history_tombstones.stored_before`: the database's clock when the forget committed. The
 *   forget covers every message of the contact stored by then, whatever its `occurred_at`
 *   (a caller-supplied date, once accepted up to year 2999). Earlier forgets covered messages
 *   dated up to `forgotten_at`, which is also when they were stored, near enough.
 * - `podium_conversations.stored_at`: when a window was written. A forget hides, then
 *   deletes, every window of the contact stored before it, so no window that holds a
 *   forgotten turn survives, however late its last turn is dated. A constant default: no
 *   table rewrite. Pending purges hid windows by their last turn's time: they now hide every
 *   window stored so far.
 * - `history_rebuilds`: conversations that lost messages (a forget, the retention sweep) and
 *   still need their windows rebuilt, written by the same statement as the deletion, so a
 *   crash in between leaves the work listed, never lost.
 * - `erasure_receipts`: what each forget cleared, store by store, and when. The contact id is
 *   kept only until the forget completes.
 * - `erasure_key`: the key of the keyed hash that stands for a contact in a completed
 *   tombstone (so a replayed message is still refused without the id being kept).
 * - `conversations_nearest()` skips hidden windows inside the walk of the contact's own
 *   index (pgvector's iterative scan goes on until `k` visible rows), so forgotten windows
 *   never crowd the top `k` out.
 */
export const erasureByMembership: Migration = {
  name: 'ErasureByMembership1700000000014',
  up: (tx) =>
    tx.exec(`
      ALTER TABLE history_tombstones ADD COLUMN stored_before timestamptz;
      UPDATE history_tombstones SET stored_before = forgotten_at;
      ALTER TABLE history_tombstones ALTER COLUMN stored_before SET NOT NULL;
      ALTER TABLE podium_conversations ADD COLUMN stored_at timestamptz NOT NULL DEFAULT now();
      UPDATE podium_conversation_purges SET hidden_before = now();
      CREATE TABLE history_rebuilds (
        contact_uid text NOT NULL,
        conversation_uid text NOT NULL,
        listed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (contact_uid, conversation_uid));
      CREATE TABLE erasure_receipts (
        receipt_id uuid PRIMARY KEY,
        contact_uid text,
        location_uids text[],
        requested_at timestamptz NOT NULL DEFAULT now(),
        cleared jsonb NOT NULL DEFAULT '{}'::jsonb,
        completed_at timestamptz);
      CREATE INDEX erasure_receipts_pending ON erasure_receipts (contact_uid)
        WHERE completed_at IS NULL;
      CREATE TABLE erasure_key (
        id int PRIMARY KEY CHECK (id = 1),
        key text NOT NULL);
      INSERT INTO erasure_key (id, key)
        VALUES (1, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''));
      CREATE OR REPLACE FUNCTION conversations_nearest(q vector, contact text, locations text[], k int)
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
             AND c.stored_at > (SELECT coalesce(max(p.hidden_before), ''-infinity''::timestamptz)
               FROM podium_conversation_purges p WHERE p.contact_uid = %L)
           ORDER BY c.embedding <=> $1 LIMIT $3', contact, contact)
          USING q, locations, k;
      END $$;`),
};
