import { createHash } from 'node:crypto';

import { abortReason } from '@app/common';
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
/** An ingest counts as ended once nothing was written for this long (issue 42). */
export const WRITES_SETTLED_MS = 5_000;
/** Contacts written since the last check that are remembered; past it, all are checked. */
const TOUCHED_MAX = 10_000;

export interface IndexSyncReport {
  created: string[];
  dropped: string[];
}

/** A text as a SQL literal (standard_conforming_strings: only quotes need doubling). */
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

type IndexDatabase = Pick<
  Database,
  'query' | 'queryPrepared' | 'session' | 'engine' | 'cosineOpclass'
>;

/**
 * The per-contact HNSW indexes: which contacts have one (cached), and their upkeep. Any
 * replica may sync: a contact's build is claimed by inserting its row first, so two replicas
 * never build the same index, and a build that died is retried after STALE_CLAIM.
 *
 * Postgres only builds them. Embedded PGlite has one session: a build there holds every
 * statement for its whole length (measured in docs/operations.md, 3,000 windows at 512-d:
 * seconds), cannot be cancelled, and one past four statement timeouts takes liveness down,
 * so the process restarted and the next sync began it again. There a large contact's dense leg
 * stays the exact sort over its history; indexes an older version built are still used, and
 * dropped when their contact goes.
 */
export class LargeContactIndexes {
  private readonly known = new Map<string, { indexed: boolean; until: number }>();
  private syncing = false;
  /** Contacts written since the last `due` check (bounded), and when the last write was. */
  private touched = new Set<string>();
  private touchedAll = false;
  private lastWriteAt = -Infinity;

  constructor(
    private readonly database: IndexDatabase,
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
   * Notes the contacts a write added windows to. In memory only, so the write path pays
   * nothing; the embedded engine builds no index, so there it notes nothing.
   */
  noteWrites(contactUids: Iterable<string>): void {
    if (this.database.engine !== 'postgres') {
      return;
    }
    for (const uid of contactUids) {
      if (this.touched.size >= TOUCHED_MAX) {
        this.touchedAll = true;
        break;
      }
      this.touched.add(uid);
    }
    this.lastWriteAt = this.now();
  }

  /**
   * Whether a sync should run now rather than on the next periodic tick: writes have been
   * quiet for WRITES_SETTLED_MS (an ingest ended) and one of the contacts they touched is
   * past the threshold without an index. A contact that crossed during a bulk load otherwise
   * waited up to a whole period, its calls reading its history exactly (docs/benchmarks.md,
   * issue 42). Reads only the touched contacts' statistics rows; the check spends the set
   * (the periodic sync still covers every contact).
   */
  async due(): Promise<boolean> {
    const noted = this.touched.size > 0 || this.touchedAll;
    if (this.syncing || !noted || this.now() - this.lastWriteAt < WRITES_SETTLED_MS) {
      return false;
    }
    const contacts = this.touchedAll ? undefined : [...this.touched];
    this.touched = new Set();
    this.touchedAll = false;
    const unindexed = `SELECT 1 FROM lexical_contact_stats s
      LEFT JOIN large_contact_indexes i ON i.contact_uid = s.contact_uid
      WHERE s.docs > $1 AND i.contact_uid IS NULL`;
    const rows = contacts
      ? await this.database.query(`${unindexed} AND s.contact_uid = ANY($2::text[]) LIMIT 1`, [
          this.largeAbove,
          contacts,
        ])
      : await this.database.query(`${unindexed} LIMIT 1`, [this.largeAbove]);
    return rows.length > 0;
  }

  /**
   * Builds the indexes of contacts past the threshold, drops those of contacts gone. One
   * builder at a time across replicas (a session advisory lock; two concurrent CREATE INDEX
   * CONCURRENTLY on one table deadlock): a replica that finds it held skips this round.
   * `signal` (shutdown) cancels the statement running on the server and rejects with its
   * reason; what was half done is finished or undone by the next sync.
   */
  async sync(signal?: AbortSignal): Promise<IndexSyncReport> {
    const report: IndexSyncReport = { created: [], dropped: [] };
    if (this.syncing) {
      return report;
    }
    this.syncing = true;
    try {
      await this.database.session(async (s) => {
        const [lock] = await s.query<{ held: boolean; pid: number }>(
          `SELECT pg_try_advisory_lock(hashtext('context_bridge:large_contact_indexes')) AS held,
             pg_backend_pid() AS pid`,
        );
        if (!lock?.held) {
          return;
        }
        await s.exec(`SET statement_timeout = 0`);
        await this.cancellable(lock.pid, signal, () => this.syncOn(s, report, signal));
      });
    } finally {
      this.syncing = false;
    }
    return report;
  }

  /**
   * Runs `work` on the session whose backend is `pid`; an abort cancels its statement in
   * flight (`pg_cancel_backend`, sent on the pool). The session is discarded after the sync,
   * so a late cancel can never reach another caller's statement.
   */
  private async cancellable(
    pid: number,
    signal: AbortSignal | undefined,
    work: () => Promise<void>,
  ): Promise<void> {
    const cancel = () => {
      if (this.database.engine === 'postgres') {
        void this.database.query('SELECT pg_cancel_backend($1)', [pid]).catch(() => undefined);
      }
    };
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      await work();
    } catch (error) {
      throw signal?.aborted ? abortReason(signal) : error;
    } finally {
      signal?.removeEventListener('abort', cancel);
    }
  }

  private async syncOn(s: SqlExecutor, report: IndexSyncReport, signal?: AbortSignal) {
    const wanted =
      this.database.engine === 'postgres'
        ? await s.query<{ contact_uid: string }>(
            `SELECT s.contact_uid FROM lexical_contact_stats s
             LEFT JOIN large_contact_indexes i ON i.contact_uid = s.contact_uid
             WHERE s.docs > $1 AND (i.contact_uid IS NULL
               OR (NOT i.ready AND i.claimed_at < now() - interval '${STALE_CLAIM}'))
             ORDER BY s.docs DESC LIMIT $2`,
            [this.largeAbove, BUILDS_PER_SYNC],
          )
        : [];
    for (const { contact_uid: contact } of wanted) {
      signal?.throwIfAborted();
      if (await this.build(s, contact)) {
        report.created.push(contact);
      }
    }
    // Every row of a contact gone, built or not: none is being built (this session holds the
    // builder's lock), and a drop that died half way is finished here.
    const gone = await s.query<{ contact_uid: string; index_name: string }>(
      `SELECT i.contact_uid, i.index_name FROM large_contact_indexes i
       LEFT JOIN lexical_contact_stats s ON s.contact_uid = i.contact_uid
       WHERE s.contact_uid IS NULL`,
    );
    for (const { contact_uid: contact, index_name: name } of gone) {
      signal?.throwIfAborted();
      await this.drop(s, contact, name);
      report.dropped.push(contact);
    }
  }

  /**
   * CONCURRENTLY on a server: a plain DROP INDEX takes ACCESS EXCLUSIVE on the conversations
   * table, and every read queues behind it while it waits for the readers before it. The row
   * goes after the index, so a drop that dies half way is retried, never left as an orphan.
   */
  private async drop(s: SqlExecutor, contact: string, name: string): Promise<void> {
    await s.execute(`UPDATE large_contact_indexes SET ready = false WHERE contact_uid = $1`, [
      contact,
    ]);
    this.forget(contact);
    await s.exec(`DROP INDEX ${this.concurrently} IF EXISTS ${name}`);
    await s.execute(`DELETE FROM large_contact_indexes WHERE contact_uid = $1`, [contact]);
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
    try {
      // A build that died or was cancelled leaves an invalid index under the name: start over.
      await s.exec(`DROP INDEX ${this.concurrently} IF EXISTS ${name}`);
      // CONCURRENTLY: ingest into the table goes on while the index builds.
      await s.exec(
        `CREATE INDEX ${this.concurrently} ${name} ON podium_conversations
         USING hnsw (embedding ${this.database.cosineOpclass}) WHERE contact_uid = ${literal(contact)}`,
      );
      await s.execute(`UPDATE large_contact_indexes SET ready = true WHERE contact_uid = $1`, [
        contact,
      ]);
    } catch (error) {
      // Stale at once: the next sync (on any replica) takes the claim over and starts again.
      await s
        .execute(
          `UPDATE large_contact_indexes SET claimed_at = '-infinity'
           WHERE contact_uid = $1 AND NOT ready`,
          [contact],
        )
        .catch(() => undefined);
      throw error;
    }
    this.forget(contact);
    return true;
  }

  private get concurrently(): string {
    return this.database.engine === 'postgres' ? 'CONCURRENTLY' : '';
  }
}
