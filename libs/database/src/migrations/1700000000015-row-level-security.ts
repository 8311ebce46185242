import { type Migration } from './migration';

/*
 * Literal names and SQL: a migration is a frozen snapshot and must not follow later renames.
 * The setting is `app.locations` (see row-security/database-scope.ts): `*` for every
 * location, else a text-array literal; unset or empty, no location.
 */

/** Evaluated once per statement (an InitPlan), not once per row. */
const EVERY = `(SELECT rls_every_location())`;
const LOCATIONS = `(SELECT rls_locations())::text[]`;
const IN_SCOPE = `(${EVERY} OR location_uid = ANY (${LOCATIONS}))`;
const CONTACT_IN_SCOPE = `(${EVERY} OR rls_contact_visible(contact_uid, ${LOCATIONS}))`;

/** Rows that carry their location. */
const LOCATION_TABLES = ['podium_conversations', 'conversation_messages', 'podium_contacts'];

/** Rows keyed by contact: visible when the contact's history is in scope (or nowhere). */
const CONTACT_TABLES = [
  'conversation_windows',
  'lexical_contact_stats',
  'lexical_contact_term_stats',
  'large_contact_indexes',
  'podium_conversation_purges',
];

/** Erasure's tables (migration 14): covered when present, so this step runs either way. */
const ERASURE_CONTACT_TABLE = 'history_rebuilds';
const ERASURE_RECEIPTS = 'erasure_receipts';

/** Read by every scope, written only by unscoped work (shared or global facts). */
const SHARED_TABLES = [
  'podium_contact_tombstones',
  'kb_source_chunks',
  'kb_topic_summaries',
  'kb_source_chunks_terms',
  'kb_topic_summaries_terms',
];

/** The service's own work lists: no location-bound caller reads or writes them. */
const SERVICE_TABLES = ['podium_webhook_events'];

const FUNCTIONS = `
  CREATE FUNCTION rls_every_location() RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE
    RETURN coalesce(current_setting('app.locations', true) = '*', false);
  -- A malformed value fails the statement: never a guess at what was meant.
  CREATE FUNCTION rls_locations() RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE
    RETURN CASE WHEN coalesce(current_setting('app.locations', true), '') IN ('', '*')
      THEN '{}'::text[] ELSE current_setting('app.locations', true)::text[] END;
  -- Looks unscoped at where the contact's history is; the caller's locations arrive as an
  -- argument, evaluated in the caller's scope, which is restored before returning. (A SET
  -- clause would be neater, but only a superuser may attach a custom setting to a function.)
  CREATE FUNCTION rls_contact_visible(contact text, locations text[]) RETURNS boolean
    LANGUAGE plpgsql VOLATILE
  AS $$
  DECLARE
    caller text := coalesce(current_setting('app.locations', true), '');
    visible boolean;
  BEGIN
    PERFORM set_config('app.locations', '*', true);
    visible := EXISTS (SELECT 1 FROM podium_conversations
                       WHERE contact_uid = contact AND location_uid = ANY (locations))
      OR EXISTS (SELECT 1 FROM conversation_messages
                 WHERE contact_uid = contact AND location_uid = ANY (locations))
      OR NOT (EXISTS (SELECT 1 FROM podium_conversations WHERE contact_uid = contact)
              OR EXISTS (SELECT 1 FROM conversation_messages WHERE contact_uid = contact));
    PERFORM set_config('app.locations', caller, true);
    RETURN visible;
  END $$;`;

const secured = (table: string) =>
  `ALTER TABLE ${table} ENABLE ROW LEVEL SECURITY; ALTER TABLE ${table} FORCE ROW LEVEL SECURITY;`;

const unscopedWrites = (table: string) => `
  CREATE POLICY unscoped_insert ON ${table} FOR INSERT WITH CHECK (${EVERY});
  CREATE POLICY unscoped_update ON ${table} FOR UPDATE USING (${EVERY});
  CREATE POLICY unscoped_delete ON ${table} FOR DELETE USING (${EVERY});`;

/**
 * Row-level security: the database itself keeps a location-bound caller to its locations,
 * even where the service's SQL forgot the filter. Every statement runs with `app.locations`
 * set for its own transaction; FORCE subjects the tables' owner too (the service's role
 * usually owns them), so only a superuser or a BYPASSRLS role escapes (docs/operations.md).
 * - Rows with a location: seen and written only in scope.
 * - `history_tombstones`: a whole-contact forget ('') is honoured by every scope; a
 *   location's only in scope; a bound caller writes its own locations only.
 * - Postings: seen with their row; inserted with it in one statement (the row is not yet
 *   visible to a check there, so the foreign key is what ties a new posting to its row).
 * - Rows keyed by contact: seen when the contact has history in scope, or none anywhere.
 * - Deleted-contact tombstones and the knowledge base: read by all, written unscoped.
 * - Erasure receipts: a bound caller's when all their locations are in its scope.
 * - The webhook inbox: unscoped work only.
 * The statistics triggers write per-contact rows in the caller's scope: a row the caller
 * just wrote puts its contact in scope. (Removing a contact's last rows in scope while it has
 * history elsewhere would leave its statistics as they were: purges, retention and merges
 * run unscoped, as the service's own work.)
 */
export const rowLevelSecurity: Migration = {
  name: 'RowLevelSecurity1700000000015',
  up: async (tx) => {
    await tx.exec(FUNCTIONS);
    for (const table of LOCATION_TABLES) {
      await tx.exec(`${secured(table)}
        CREATE POLICY scope ON ${table} USING ${IN_SCOPE} WITH CHECK ${IN_SCOPE};`);
    }
    await tx.exec(`${secured('history_tombstones')}
      CREATE POLICY scope_read ON history_tombstones FOR SELECT
        USING (location_uid = '' OR ${IN_SCOPE});
      CREATE POLICY scope_insert ON history_tombstones FOR INSERT WITH CHECK ${IN_SCOPE};
      CREATE POLICY scope_update ON history_tombstones FOR UPDATE USING ${IN_SCOPE};
      CREATE POLICY scope_delete ON history_tombstones FOR DELETE USING ${IN_SCOPE};`);
    const withRow = `(${EVERY} OR EXISTS (SELECT 1 FROM podium_conversations d
      WHERE d.id = podium_conversations_terms.doc_id))`;
    await tx.exec(`${secured('podium_conversations_terms')}
      CREATE POLICY scope_read ON podium_conversations_terms FOR SELECT USING ${withRow};
      CREATE POLICY scope_insert ON podium_conversations_terms FOR INSERT WITH CHECK (true);
      CREATE POLICY scope_update ON podium_conversations_terms FOR UPDATE USING ${withRow};
      CREATE POLICY scope_delete ON podium_conversations_terms FOR DELETE USING ${withRow};`);
    const present = async (table: string) =>
      (await tx.query(`SELECT to_regclass($1) IS NOT NULL AS here`, [table]))[0]?.here === true;
    const contactTables = [...CONTACT_TABLES];
    if (await present(ERASURE_CONTACT_TABLE)) {
      contactTables.push(ERASURE_CONTACT_TABLE);
    }
    for (const table of contactTables) {
      await tx.exec(`${secured(table)}
        CREATE POLICY scope ON ${table} USING ${CONTACT_IN_SCOPE} WITH CHECK ${CONTACT_IN_SCOPE};`);
    }
    // A receipt is a bound caller's when every location it covers is in scope (NULL: all).
    const receipt = `(${EVERY} OR location_uids <@ ${LOCATIONS})`;
    if (await present(ERASURE_RECEIPTS)) {
      await tx.exec(`${secured(ERASURE_RECEIPTS)}
        CREATE POLICY scope ON ${ERASURE_RECEIPTS} USING ${receipt} WITH CHECK ${receipt};`);
    }
    for (const table of SHARED_TABLES) {
      await tx.exec(`${secured(table)}
        CREATE POLICY read ON ${table} FOR SELECT USING (true); ${unscopedWrites(table)}`);
    }
    for (const table of SERVICE_TABLES) {
      await tx.exec(`${secured(table)}
        CREATE POLICY unscoped ON ${table} USING (${EVERY}) WITH CHECK (${EVERY});`);
    }
  },
};
