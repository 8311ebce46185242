import { type Migration } from './migration';

// Literal names: a migration is a frozen snapshot and must not follow later renames.
const TABLES = {
  conversations: 'podium_conversations',
  source_chunks: 'kb_source_chunks',
  topic_summaries: 'kb_topic_summaries',
} as const;
const CONVERSATIONS = TABLES.conversations;

/** Rows of statistics that concurrent writers spread over instead of queueing on one. */
export const STATS_SHARDS = 16;

/**
 * Retrieval cost that does not grow with a contact's history or with the corpus:
 *  - each posting carries its document's contact and length, and an `impact` (its BM25 term
 *    weight at a typical document length), so a query reads the best postings of
 *    (contact, term), or of a term corpus-wide, from one index, without visiting documents;
 *  - per-contact BM25 statistics (documents, terms, and each term's document frequency) are
 *    maintained by statement triggers instead of counted over the contact's rows per query;
 *  - the collection totals every insert touched (one row per collection, one per term) are
 *    sharded, so concurrent writers add to different rows; readers sum the shards.
 */
export const scalePostings: Migration = {
  name: 'ScalePostings1700000000008',
  up: async (tx) => {
    await tx.exec(IMPACT_FUNCTION);
    for (const table of Object.values(TABLES)) {
      await tx.exec(`
        ALTER TABLE ${table}_terms ADD COLUMN contact_uid text, ADD COLUMN doc_len int,
          ADD COLUMN impact real;
        UPDATE ${table}_terms p SET contact_uid = ${table === CONVERSATIONS ? 'd.contact_uid' : 'NULL'},
          doc_len = d.term_count, impact = posting_impact(p.tf, d.term_count)
          FROM ${table} d WHERE d.id = p.doc_id;
        ALTER TABLE ${table}_terms ALTER COLUMN doc_len SET NOT NULL,
          ALTER COLUMN impact SET NOT NULL;
        DROP INDEX IF EXISTS ${table}_terms_term;
        CREATE INDEX ${table}_terms_term_impact ON ${table}_terms
          (term, impact DESC) INCLUDE (doc_id, tf, doc_len);`);
    }
    await tx.exec(`
      CREATE INDEX ${CONVERSATIONS}_terms_contact_term_impact ON ${CONVERSATIONS}_terms
        (contact_uid, term, impact DESC) INCLUDE (doc_id, tf, doc_len);
      CREATE TABLE lexical_contact_stats (contact_uid text PRIMARY KEY, docs bigint NOT NULL,
        terms bigint NOT NULL);
      CREATE TABLE lexical_contact_term_stats (contact_uid text NOT NULL, term text NOT NULL,
        df int NOT NULL, PRIMARY KEY (contact_uid, term));
      INSERT INTO lexical_contact_stats (contact_uid, docs, terms)
        SELECT contact_uid, count(*), sum(term_count) FROM ${CONVERSATIONS} GROUP BY contact_uid;
      INSERT INTO lexical_contact_term_stats (contact_uid, term, df)
        SELECT contact_uid, term, count(*) FROM ${CONVERSATIONS}_terms
        GROUP BY contact_uid, term;

      ALTER TABLE lexical_doc_stats ADD COLUMN shard int NOT NULL DEFAULT 0;
      ALTER TABLE lexical_doc_stats DROP CONSTRAINT lexical_doc_stats_pkey,
        ADD PRIMARY KEY (collection, shard);
      ALTER TABLE lexical_term_stats ADD COLUMN shard int NOT NULL DEFAULT 0;
      ALTER TABLE lexical_term_stats DROP CONSTRAINT lexical_term_stats_pkey,
        ADD PRIMARY KEY (collection, term, shard);`);
    await tx.exec(TRIGGER_FUNCTIONS);
    await tx.exec(`
      CREATE TRIGGER ${CONVERSATIONS}_contacts_added AFTER INSERT ON ${CONVERSATIONS}
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT
        EXECUTE FUNCTION lexical_contact_docs_added();
      CREATE TRIGGER ${CONVERSATIONS}_contacts_removed AFTER DELETE ON ${CONVERSATIONS}
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT
        EXECUTE FUNCTION lexical_contact_docs_removed();
      CREATE TRIGGER ${CONVERSATIONS}_terms_contacts_added AFTER INSERT ON ${CONVERSATIONS}_terms
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT
        EXECUTE FUNCTION lexical_contact_terms_added();
      CREATE TRIGGER ${CONVERSATIONS}_terms_contacts_removed AFTER DELETE ON ${CONVERSATIONS}_terms
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT
        EXECUTE FUNCTION lexical_contact_terms_removed();`);
  },
};

/**
 * The shard a statement writes to: a hash of the transaction id, so one transaction stays on
 * one shard (no self-conflict) while concurrent transactions mostly land on different ones.
 * Removals subtract from the remover's shard; a shard may go negative, the sum stays exact.
 */
const SHARD = `(txid_current() % ${STATS_SHARDS})::int`;

const IMPACT_FUNCTION = `
  CREATE FUNCTION posting_impact(tf int, doc_len int) RETURNS real
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    -- BM25's term-frequency factor (k1 1.2, b 0.75) at a typical window length of 40 terms:
    -- postings read best-first by it; the score itself uses the real statistics.
    RETURN tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * doc_len / 40.0));
`;

const TRIGGER_FUNCTIONS = `
  CREATE OR REPLACE FUNCTION lexical_terms_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO lexical_term_stats (collection, term, shard, df)
      SELECT TG_ARGV[0], term, ${SHARD}, count(*) FROM added GROUP BY term ORDER BY term
      ON CONFLICT (collection, term, shard)
        DO UPDATE SET df = lexical_term_stats.df + excluded.df;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION lexical_terms_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO lexical_term_stats (collection, term, shard, df)
      SELECT TG_ARGV[0], term, ${SHARD}, -count(*) FROM removed GROUP BY term ORDER BY term
      ON CONFLICT (collection, term, shard)
        DO UPDATE SET df = lexical_term_stats.df + excluded.df;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION lexical_docs_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO lexical_doc_stats (collection, shard, docs, terms)
      SELECT TG_ARGV[0], ${SHARD}, count(*), coalesce(sum(term_count), 0) FROM added
      ON CONFLICT (collection, shard) DO UPDATE SET docs = lexical_doc_stats.docs + excluded.docs,
        terms = lexical_doc_stats.terms + excluded.terms;
    RETURN NULL;
  END $$;
  CREATE OR REPLACE FUNCTION lexical_docs_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO lexical_doc_stats (collection, shard, docs, terms)
      SELECT TG_ARGV[0], ${SHARD}, -count(*), -coalesce(sum(term_count), 0) FROM removed
      ON CONFLICT (collection, shard) DO UPDATE SET docs = lexical_doc_stats.docs + excluded.docs,
        terms = lexical_doc_stats.terms + excluded.terms;
    RETURN NULL;
  END $$;

  -- Per contact: rows keyed by the contact, locked in key order (no deadlock between writers).
  CREATE FUNCTION lexical_contact_docs_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO lexical_contact_stats (contact_uid, docs, terms)
      SELECT contact_uid, count(*), sum(term_count) FROM added
      GROUP BY contact_uid ORDER BY contact_uid
      ON CONFLICT (contact_uid) DO UPDATE SET docs = lexical_contact_stats.docs + excluded.docs,
        terms = lexical_contact_stats.terms + excluded.terms;
    RETURN NULL;
  END $$;
  CREATE FUNCTION lexical_contact_docs_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE lexical_contact_stats s SET docs = s.docs - r.n, terms = s.terms - r.t
      FROM (SELECT contact_uid, count(*) AS n, sum(term_count) AS t FROM removed
            GROUP BY contact_uid ORDER BY contact_uid) r
      WHERE s.contact_uid = r.contact_uid;
    DELETE FROM lexical_contact_stats s USING (SELECT DISTINCT contact_uid FROM removed) r
      WHERE s.contact_uid = r.contact_uid AND s.docs <= 0;
    RETURN NULL;
  END $$;
  CREATE FUNCTION lexical_contact_terms_added() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO lexical_contact_term_stats (contact_uid, term, df)
      SELECT contact_uid, term, count(*) FROM added
      GROUP BY contact_uid, term ORDER BY contact_uid, term
      ON CONFLICT (contact_uid, term)
        DO UPDATE SET df = lexical_contact_term_stats.df + excluded.df;
    RETURN NULL;
  END $$;
  CREATE FUNCTION lexical_contact_terms_removed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE lexical_contact_term_stats s SET df = s.df - r.n
      FROM (SELECT contact_uid, term, count(*) AS n FROM removed
            GROUP BY contact_uid, term ORDER BY contact_uid, term) r
      WHERE s.contact_uid = r.contact_uid AND s.term = r.term;
    DELETE FROM lexical_contact_term_stats s USING (SELECT DISTINCT contact_uid, term FROM removed) r
      WHERE s.contact_uid = r.contact_uid AND s.term = r.term AND s.df <= 0;
    RETURN NULL;
  END $$;`;
