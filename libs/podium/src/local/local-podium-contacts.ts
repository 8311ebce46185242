import { currentScopeSetting, type Database, PodiumContactEntity } from '@app/database';
import { In, type QueryDeepPartialEntity } from 'typeorm';

import {
  type ContactLookup,
  type ContactSummary,
  type LiveContact,
  type PodiumContacts,
  type PodiumStatus,
} from '../interfaces/podium-contacts.interface';
import { localContactCache } from './local-contact-cache';

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

  /** Drops the cached copies of the contact (every scope's), after an erasure deleted its row. */
  async invalidate(contactUid: string): Promise<void> {
    await localContactCache(this.database)?.cache.invalidate(contactUid);
  }

  /**
   * The contact's row, from the embedded engine's cache when it holds it (see
   * registerLocalContactCache): the same answer as the table's, a database round trip less
   * on every turn of a call. Copies are per row-level-security scope, since the table's
   * policies decide what a scope sees.
   */
  async getContact(contactUid: string): Promise<ContactLookup> {
    const local = localContactCache(this.database);
    const key = `${currentScopeSetting()}\n${contactUid}`;
    const read = local ? await local.cache.read(key) : {};
    if (read.lookup) {
      return read.lookup;
    }
    const lookup = await this.readContact(contactUid);
    if (local && read.stamp !== undefined) {
      const ttlMs = lookup.status === 'found' ? local.ttlMs : local.notFoundTtlMs;
      // Refused if the contact was written after the read above: never a stale copy back.
      void local.cache.set(key, lookup, ttlMs, [contactUid], read.stamp);
    }
    return lookup;
  }

  private async readContact(contactUid: string): Promise<ContactLookup> {
    await this.database.whenOpen();
    // Raw: the /context hot path (the live lookup of every call), a statement prepared once.
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
    const rows = await this.contacts().find({
      select: { contactUid: true, name: true, locationUid: true },
      where: locationUids ? { locationUid: In([...locationUids]) } : {},
      order: { contactUid: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({
      contact_uid: r.contactUid,
      name: r.name,
      location_uid: r.locationUid,
    }));
  }

  /**
   * Inserts or updates contacts (demo seed, tests, and later webhooks): every field is
   * replaced, and a contact named twice takes its last entry.
   */
  async upsert(contacts: LocalContact[]): Promise<void> {
    await this.database.whenOpen();
    const rows = [...new Map(contacts.map((c) => [c.contact_uid, toEntity(c)])).values()];
    for (let i = 0; i < rows.length; i += UPSERT_BATCH) {
      // INSERT … ON CONFLICT (contact_uid) DO UPDATE SET every column given.
      await this.contacts().upsert(rows.slice(i, i + UPSERT_BATCH), ['contactUid']);
    }
    // After the write: a lookup that read the old row meanwhile cannot cache it (its stamp).
    const cache = localContactCache(this.database)?.cache;
    for (const contact of cache ? contacts : []) {
      await cache?.invalidate(contact.contact_uid);
    }
  }

  /** The location of each of `uids` already in the table (null: a contact without one). */
  async locationsOf(uids: readonly string[]): Promise<Map<string, string | null>> {
    await this.database.whenOpen();
    if (uids.length === 0) {
      return new Map();
    }
    const rows = await this.contacts().find({
      select: { contactUid: true, locationUid: true },
      where: { contactUid: In([...uids]) },
    });
    return new Map(rows.map((r) => [r.contactUid, r.locationUid]));
  }

  async count(): Promise<number> {
    await this.database.whenOpen();
    return this.contacts().count();
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
      // Whether or not it holds a row: the table answers.
      await this.contacts().exists();
      return true;
    } catch {
      return false;
    }
  }

  private contacts() {
    return this.database.dataSource.getRepository(PodiumContactEntity);
  }
}

/** Contacts per upsert statement: eight parameters each, far below Postgres' 65,535. */
const UPSERT_BATCH = 1000;

function toEntity(c: LocalContact): QueryDeepPartialEntity<PodiumContactEntity> {
  // null, never undefined: TypeORM leaves an undefined column out of the update.
  return {
    contactUid: c.contact_uid,
    name: c.name ?? null,
    phone: c.phone ?? null,
    email: c.email ?? null,
    optOutSms: c.opt_out_sms,
    optOutEmail: c.opt_out_email,
    locationUid: c.location_uid ?? null,
    lastSeenAt: c.last_seen_at ? new Date(c.last_seen_at) : null,
    // The server's clock, on insert and update alike.
    updatedAt: () => 'now()',
  };
}
