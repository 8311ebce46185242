import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Contacts for the `local` Podium provider: the live CRM fields the context bridge merges
 * over history, kept in the service's own database for the embedded mode and demos.
 */
export class PodiumContacts1700000000001 implements MigrationInterface {
  name = 'PodiumContacts1700000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE podium_contacts (
        contact_uid text PRIMARY KEY,
        name text,
        phone text,
        email text,
        opt_out_sms boolean NOT NULL DEFAULT false,
        opt_out_email boolean NOT NULL DEFAULT false,
        location_uid text,
        last_seen_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now())`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS podium_contacts`);
  }
}
