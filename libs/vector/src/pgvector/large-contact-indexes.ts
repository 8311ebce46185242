import { createHash } from 'node:crypto';

import { type Database, type SqlExecutor } from '@app/database';

/**
 * Above this many windows a contact gets its own HNSW index (partial on its id) and its dense
 * leg walks it; below, reading its history through the contact btree and sorting it exactly
 * is cheap (a few ms) and exact. Chosen by measurement (docs/benchmarks.md, bench:scale).
 */
export const LARGE_CONTACT_WINDOWS = 3000;

/** How long whether a contact has its own index is trusted: a new index is used this late. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
/** Indexes one sync builds: each takes seconds to minutes, the next sync does the rest. */
const BUILDS_PER_SYNC = 8;
/** A claim whose build never finished (its replica died) is taken over after this. */
const STALE_CLAIM = '1 hour';

export interface IndexSyncReport {
  created: string[];
  dropped: string[];
}

/** A text as a SQL literal (standard_conforming_strings: only quotes need doubling). */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * The per-contact HNSW indexes: which contacts have one (cached), and their upkeep. Any
 * replica may sync: a contact's build is claimed by inserting its row first, so two replicas
 * never build the same index, and a build that died is retried after STALE_CLAIM.
 */
export class LargeContactIndexes {
  private readonly known = new Map<string, { indexed: boolean; until: number }>();
  private syncing = false;

  constructor(
    private readonly database: Pick<Database, 'queryPrepared' | 'session' | 'engine'>,
    private readonly largeAbove = LARGE_CONTACT_WINDOWS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether the contact's dense leg can walk its own index. */
  async indexed(contactUid: string): Promise<boolean> {
    const cached = this.known.get(contactUid);
    if (cached && cached.until > this.now()) {
      return cached.indexed;
    }
    const rows = await this.database.queryPrepared(
      `SELECT 1 FROM large_contact_indexes WHERE contact_uid = $1 AND ready`,
      [contactUid],
    );
    if (this.known.size >= MAX_ENTRIES) {
      this.known.clear();
    }
    this.known.set(contactUid, { indexed: rows.length > 0, until: this.now() + TTL_MS });
    return rows.length > 0;
  }

  forget(...contactUids: string[]): void {
    contactUids.forEach((uid) => this.known.delete(uid));
  }

  /**
   * Builds the indexes of contacts past the threshold, drops those of contacts gone. One
   * builder at a time across replicas (a session advisory lock; two concurrent CREATE INDEX
   * CONCURRENTLY on one table deadlock): a replica that finds it held skips this round.
   */
  async sync(): Promise<IndexSyncReport> {
    const report: IndexSyncReport = { created: [], dropped: [] };
    if (this.syncing) {
      return report;
    }
    this.syncing = true;
    try {
      await this.database.session(async (s) => {
        const [lock] = await s.query<{ held: boolean }>(
          `SELECT pg_try_advisory_lock(hashtext('context_bridge:large_contact_indexes')) AS held`,
        );
        if (!lock?.held) {
          return;
        }
        await s.exec(`SET statement_timeout = 0`);
        await this.syncOn(s, report);
      });
    } finally {
      this.syncing = false;
    }
    return report;
  }

  private async syncOn(s: SqlExecutor, report: IndexSyncReport): Promise<void> {
    const wanted = await s.query<{ contact_uid: string }>(
      `SELECT s.contact_uid FROM lexical_contact_stats s
       LEFT JOIN large_contact_indexes i ON i.contact_uid = s.contact_uid
       WHERE s.docs > $1 AND (i.contact_uid IS NULL
         OR (NOT i.ready AND i.claimed_at < now() - interval '${STALE_CLAIM}'))
       ORDER BY s.docs DESC LIMIT $2`,
      [this.largeAbove, BUILDS_PER_SYNC],
    );
    for (const { contact_uid: contact } of wanted) {
      if (await this.build(s, contact)) {
        report.created.push(contact);
      }
    }
    const gone = await s.query<{ contact_uid: string; index_name: string }>(
      `SELECT i.contact_uid, i.index_name FROM large_contact_indexes i
       LEFT JOIN lexical_contact_stats s ON s.contact_uid = i.contact_uid
       WHERE i.ready AND s.contact_uid IS NULL`,
    );
    for (const { contact_uid: contact, index_name: name } of gone) {
      await s.execute(`DELETE FROM large_contact_indexes WHERE contact_uid = $1`, [contact]);
      await s.exec(`DROP INDEX IF EXISTS ${name}`);
      this.forget(contact);
      report.dropped.push(contact);
    }
  }

  private async build(s: SqlExecutor, contact: string): Promise<boolean> {
    const name = `podium_conversations_hnsw_${createHash('sha256').update(contact).digest('hex').slice(0, 20)}`;
    const claimed = await s.query(
      `INSERT INTO large_contact_indexes (contact_uid, index_name) VALUES ($1, $2)
       ON CONFLICT (contact_uid) DO UPDATE SET claimed_at = now()
         WHERE NOT large_contact_indexes.ready
           AND large_contact_indexes.claimed_at < now() - interval '${STALE_CLAIM}'
       RETURNING contact_uid`,
      [contact, name],
    );
    if (claimed.length === 0) {
      return false; // another replica builds it
    }
    // CONCURRENTLY: ingest into the table goes on while the index builds (Postgres server).
    const concurrently = this.database.engine === 'postgres' ? 'CONCURRENTLY' : '';
    // A build that died leaves an invalid index under the name: start over.
    await s.exec(`DROP INDEX ${concurrently} IF EXISTS ${name}`);
    await s.exec(
      `CREATE INDEX ${concurrently} ${name} ON podium_conversations
       USING hnsw (embedding vector_cosine_ops) WHERE contact_uid = ${literal(contact)}`,
    );
    await s.execute(`UPDATE large_contact_indexes SET ready = true WHERE contact_uid = $1`, [
      contact,
    ]);
    this.forget(contact);
    return true;
  }
}
