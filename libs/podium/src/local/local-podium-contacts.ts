import { type Database } from '@app/database';

import {
  type ContactLookup,
  type ContactSummary,
  type LiveContact,
  type PodiumContacts,
  type PodiumStatus,
} from '../interfaces/podium-contacts.interface';

interface ContactRow {
  contact_uid: string;
  phone: string | null;
  email: string | null;
  opt_out_sms: boolean;
  opt_out_email: boolean;
  location_uid: string | null;
  last_seen_at: Date | null;
}

export type LocalContact = Omit<LiveContact, 'opt_out_sms' | 'opt_out_email' | 'location_uids'> & {
  name?: string;
  opt_out_sms: boolean;
  opt_out_email: boolean;
};

/**
 * The embedded CRM: a `podium_contacts` table in the service's own database, with the same
 * interface as the Podium API client. Used for the embedded mode, demos and tests.
 */
export class LocalPodiumContacts implements PodiumContacts {
  constructor(private readonly database: Database) {}

  /** Nothing to invalidate: every lookup reads the table. */
  async invalidate(): Promise<void> {}

  async getContact(contactUid: string): Promise<ContactLookup> {
    await this.database.whenOpen();
    const rows = await this.database.queryPrepared<ContactRow>(
      `SELECT contact_uid, phone, email, opt_out_sms, opt_out_email, location_uid, last_seen_at
       FROM podium_contacts WHERE contact_uid = $1`,
      [contactUid],
    );
    const row = rows[0];
    if (!row) {
      return { status: 'not_found' };
    }
    return {
      status: 'found',
      contact: {
        ...row,
        last_seen_at: row.last_seen_at ? new Date(row.last_seen_at).toISOString() : null,
        // The embedded table holds one location per contact.
        location_uids: row.location_uid ? [row.location_uid] : [],
      },
    };
  }

  async list(limit: number, locationUids?: readonly string[]): Promise<ContactSummary[]> {
    await this.database.whenOpen();
    return locationUids
      ? this.database.queryPrepared<ContactSummary>(
          `SELECT contact_uid, name, location_uid FROM podium_contacts
           WHERE location_uid = ANY($1::text[]) ORDER BY contact_uid LIMIT $2`,
          [[...locationUids], limit],
        )
      : this.database.queryPrepared<ContactSummary>(
          `SELECT contact_uid, name, location_uid FROM podium_contacts ORDER BY contact_uid LIMIT $1`,
          [limit],
        );
  }

  /** Inserts or updates contacts (demo seed, tests, and later webhooks). */
  async upsert(contacts: LocalContact[]): Promise<void> {
    await this.database.whenOpen();
    for (const c of contacts) {
      await this.database.execute(
        `INSERT INTO podium_contacts (contact_uid, name, phone, email, opt_out_sms, opt_out_email, location_uid, last_seen_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now())
         ON CONFLICT (contact_uid) DO UPDATE SET name = EXCLUDED.name, phone = EXCLUDED.phone,
           email = EXCLUDED.email, opt_out_sms = EXCLUDED.opt_out_sms, opt_out_email = EXCLUDED.opt_out_email,
           location_uid = EXCLUDED.location_uid, last_seen_at = EXCLUDED.last_seen_at, updated_at = now()`,
        [
          c.contact_uid,
          c.name ?? null,
          c.phone,
          c.email,
          c.opt_out_sms,
          c.opt_out_email,
          c.location_uid,
          c.last_seen_at,
        ],
      );
    }
  }

  async count(): Promise<number> {
    await this.database.whenOpen();
    const [row] = await this.database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM podium_contacts`,
    );
    return row.n;
  }

  async status(): Promise<PodiumStatus> {
    return (await this.isHealthy())
      ? { status: 'up' }
      : { status: 'degraded', reason: 'unreachable' };
  }

  async isHealthy(): Promise<boolean> {
    if (!this.database.isOpen) {
      return false;
    }
    try {
      await this.database.query('SELECT 1 FROM podium_contacts LIMIT 1');
      return true;
    } catch {
      return false;
    }
  }
}
