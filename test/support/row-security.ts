import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

import { createServerDatabase, serverUrl, withDatabase } from './postgres';

/**
 * A server database owned by a fresh login role that is neither superuser nor BYPASSRLS:
 * row-level security applies to it (FORCE subjects the owner), never to the superuser a test
 * server hands out. pgvector is installed by the superuser; the role owns everything else.
 */
export async function ownedServerDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const database = await createServerDatabase();
  const role = `cb_rls_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl() });
  await admin.connect();
  const name = new URL(database.url).pathname.slice(1);
  await admin.query(`CREATE ROLE ${role} LOGIN NOSUPERUSER NOBYPASSRLS`);
  await admin.query(`ALTER DATABASE ${name} OWNER TO ${role}`);
  await admin.end();
  const inDb = new Client({ connectionString: database.url });
  await inDb.connect();
  await inDb.query('CREATE EXTENSION IF NOT EXISTS vector');
  await inDb.query(`GRANT ALL ON SCHEMA public TO ${role}`);
  await inDb.end();
  const url = new URL(withDatabase(serverUrl(), name));
  url.username = role;
  url.password = '';
  return {
    url: url.toString(),
    drop: async () => {
      await database.drop();
      const c = new Client({ connectionString: serverUrl() });
      await c.connect();
      await c.query(`DROP ROLE IF EXISTS ${role}`);
      await c.end();
    },
  };
}

/** A message row of `location` for the shared contact (the columns of {@link INSERT}). */
export const message = (id: string, location: string) => [
  id,
  `tk_${id}`,
  `conv_${location}`,
  'ctc_shared',
  location,
  'sms',
  new Date('2026-01-01T00:00:00Z'),
  'customer',
  `text of ${id}`,
];
export const INSERT = `INSERT INTO conversation_messages (message_id, turn_key, conversation_uid,
  contact_uid, location_uid, channel, occurred_at, sender, text)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`;
/** Every location with a message: no location filter, so only the policies limit it. */
export const LOCATIONS = `SELECT DISTINCT location_uid FROM conversation_messages ORDER BY 1`;
export const seen = (rows: Array<{ location_uid: string }>) => rows.map((r) => r.location_uid);
