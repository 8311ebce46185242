import { type Database } from '@app/database';

/**
 * Above this many windows a contact's dense leg walks the HNSW index (with an iterative
 * filtered scan) instead of reading and sorting its whole history: below it, the exact sort
 * is cheaper and exact. Chosen by measurement (docs/benchmarks.md, bench:scale).
 */
export const LARGE_CONTACT_WINDOWS = 1000;

/** How long a contact's size class is trusted: crossing the line late by this is harmless. */
const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

/** Whether a contact's history is large, from the maintained per-contact statistics. */
export class ContactSizes {
  private readonly known = new Map<string, { large: boolean; until: number }>();

  constructor(
    private readonly database: Pick<Database, 'queryPrepared'>,
    private readonly largeAbove = LARGE_CONTACT_WINDOWS,
    private readonly now: () => number = Date.now,
  ) {}

  async isLarge(contactUid: string): Promise<boolean> {
    const cached = this.known.get(contactUid);
    if (cached && cached.until > this.now()) {
      return cached.large;
    }
    const [row] = await this.database.queryPrepared<{ docs: string }>(
      `SELECT docs FROM lexical_contact_stats WHERE contact_uid = $1`,
      [contactUid],
    );
    const large = Number(row?.docs ?? 0) > this.largeAbove;
    if (this.known.size >= MAX_ENTRIES) {
      this.known.clear();
    }
    this.known.set(contactUid, { large, until: this.now() + TTL_MS });
    return large;
  }

  forget(...contactUids: string[]): void {
    contactUids.forEach((uid) => this.known.delete(uid));
  }
}
