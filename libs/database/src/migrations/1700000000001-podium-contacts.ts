import { type Migration } from './migration';

/**
 * Contacts for the `local` Podium provider: the live CRM fields the context bridge merges
 * over history, kept in the service's own database for the embedded mode and demos.
 */
export const podiumContacts: Migration = {
  name: 'PodiumContacts1700000000001',
  up: (tx) =>
    tx.exec(`
      CREATE TABLE podium_contacts (
        contact_uid text PRIMARY KEY,
        name text,
        phone text,
        email text,
        opt_out_sms boolean NOT NULL DEFAULT false,
        opt_out_email boolean NOT NULL DEFAULT false,
        location_uid text,
        last_seen_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now())`),
};
