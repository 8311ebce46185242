import { randomUUID } from 'node:crypto';

import { Database, type SqlExecutor } from '@app/database';

/** The derived stores a forget clears, in the order a receipt lists them. */
export const ERASURE_STORES = [
  'messages',
  'windows',
  'postings_and_statistics',
  'contact_indexes',
  'vector_points',
  'webhook_payloads',
  'caches',
] as const;
export type ErasureStore = (typeof ERASURE_STORES)[number];

/** One store of a receipt: when it was cleared (null: not yet), or not used by this deployment. */
export interface ReceiptStore {
  store: ErasureStore;
  cleared_at: string | null;
  applies: boolean;
}

/** What `GET /contacts/forget/receipts/{id}` shows: never the contact id. */
export interface ErasureReceipt {
  receipt_id: string;
  location_uids: string[] | null;
  requested_at: string;
  completed_at: string | null;
  stores: ReceiptStore[];
}

interface ReceiptRow {
  receipt_id: string;
  location_uids: string[] | null;
  requested_at: Date;
  completed_at: Date | null;
  cleared: Partial<Record<ErasureStore, string>>;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/**
 * Deletion receipts (`erasure_receipts`): one per forget, written with its tombstone, and
 * stamped store by store as the purge clears them. A pending receipt keeps the contact id
 * (the purge's key); a completed one does not.
 */
export class ErasureReceipts {
  constructor(
    private readonly database: Database,
    /** Stores this deployment does not have (no Qdrant with pgvector, and the reverse). */
    private readonly absent: ReadonlySet<ErasureStore>,
  ) {}

  /** A new receipt, on the forget's transaction. */
  async open(tx: SqlExecutor, contactUid: string, locations: readonly string[] | undefined) {
    const id = randomUUID();
    await tx.execute(
      `INSERT INTO erasure_receipts (receipt_id, contact_uid, location_uids) VALUES ($1, $2, $3)`,
      [id, contactUid, locations ? [...locations] : null],
    );
    return id;
  }

  /**
   * Stamps `stores` cleared now on the contact's pending receipts within this scope (whole
   * contact: every pending receipt of it; locations: receipts of those locations only).
   * Earlier stamps are kept.
   */
  async cleared(
    contactUid: string,
    locations: readonly string[] | undefined,
    stores: readonly ErasureStore[],
  ): Promise<void> {
    const stamp = Object.fromEntries(stores.map((s) => [s, new Date().toISOString()]));
    // Raw: a jsonb merge that keeps the first stamp of each store (existing keys win).
    await this.database.execute(
      `UPDATE erasure_receipts SET cleared = $3::jsonb || cleared
       WHERE contact_uid = $1 AND completed_at IS NULL
         AND ($2::text[] IS NULL OR location_uids <@ $2::text[])`,
      [contactUid, locations ? [...locations] : null, JSON.stringify(stamp)],
    );
  }

  /**
   * Completes the contact's pending receipts whose every store is cleared, and forgets the
   * id on them; returns the receipts still pending (a cache not reached yet).
   */
  async complete(contactUid: string): Promise<number> {
    const needed = ERASURE_STORES.filter((s) => !this.absent.has(s));
    await this.database.execute(
      `UPDATE erasure_receipts SET completed_at = now(), contact_uid = NULL
       WHERE contact_uid = $1 AND completed_at IS NULL AND cleared ?& $2::text[]`,
      [contactUid, needed],
    );
    const [row] = await this.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM erasure_receipts
       WHERE contact_uid = $1 AND completed_at IS NULL`,
      [contactUid],
    );
    return row.n;
  }

  /** Contacts whose receipts wait on a store cleared later (a cache, the contact's own index). */
  async waiting(limit: number): Promise<string[]> {
    const rows = await this.database.query<{ contact_uid: string }>(
      `SELECT DISTINCT contact_uid FROM erasure_receipts
       WHERE completed_at IS NULL AND cleared ? 'messages' LIMIT $1`,
      [limit],
    );
    return rows.map((r) => r.contact_uid);
  }

  async find(receiptId: string): Promise<ErasureReceipt | undefined> {
    const [row] = await this.database.query<ReceiptRow>(
      `SELECT receipt_id, location_uids, requested_at, completed_at, cleared
       FROM erasure_receipts WHERE receipt_id = $1`,
      [receiptId],
    );
    if (!row) {
      return undefined;
    }
    return {
      receipt_id: row.receipt_id,
      location_uids: row.location_uids,
      requested_at: iso(row.requested_at) as string,
      completed_at: iso(row.completed_at),
      stores: ERASURE_STORES.map((store) => ({
        store,
        cleared_at: row.cleared[store] ?? null,
        applies: !this.absent.has(store),
      })),
    };
  }
}
