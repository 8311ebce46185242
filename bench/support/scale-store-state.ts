import { type DbProbe } from './scale-db-watch';

/** The per-contact index threshold (libs/vector large-contact-indexes.ts). */
const LARGE_CONTACT_WINDOWS = 3000;

/**
 * What issue 42's changes left the store as, for the after-load JSON: the last migration
 * applied, the postings' count types (migration 23), and how many contacts past the
 * per-contact HNSW threshold already have their index when a round starts (the service now
 * builds one once an ingest settles, where it waited for a 10-minute tick).
 */
export async function storeState(db: DbProbe) {
  const [migration] = await db.query<{ name: string }>(
    `SELECT name FROM migrations ORDER BY id DESC LIMIT 1`,
  );
  const counts = await db.query<{ column: string; type: string }>(
    `SELECT attname AS column, format_type(atttypid, atttypmod) AS type FROM pg_attribute
     WHERE attrelid = 'podium_conversations_terms'::regclass AND attname IN ('tf', 'doc_len')
     ORDER BY 1`,
  );
  const [large] = await db.query<{ over: number; indexed: number }>(
    `SELECT count(*)::int AS over, count(*) FILTER (WHERE i.ready)::int AS indexed
     FROM lexical_contact_stats s
     LEFT JOIN large_contact_indexes i ON i.contact_uid = s.contact_uid
     WHERE s.docs > $1`,
    [LARGE_CONTACT_WINDOWS],
  );
  return {
    last_migration: migration?.name,
    posting_counts: Object.fromEntries(counts.map((c) => [c.column, c.type])),
    large_contacts: { over_threshold: large.over, indexed: large.indexed },
  };
}

/**
 * Seconds from `since` until every contact past the threshold has its own index, polled
 * each second until `stop` resolves; null if that did not happen by then.
 */
export async function secondsUntilIndexed(
  db: DbProbe,
  since: number,
  stop: Promise<unknown>,
): Promise<number | null> {
  let stopped = false;
  void stop.finally(() => (stopped = true));
  while (!stopped) {
    const { large_contacts: large } = await storeState(db);
    if (large.indexed >= large.over_threshold) {
      return Number(((performance.now() - since) / 1000).toFixed(1));
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return null;
}
