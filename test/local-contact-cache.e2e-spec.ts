import { type Database, withDatabaseScope } from '@app/database';
import { createPodiumContacts, type LocalContact, LocalPodiumContacts } from '@app/podium';

import { openEngineDatabase, TEST_ENGINE } from './support/postgres';

const contact = (uid: string, fields: Partial<LocalContact> = {}): LocalContact => ({
  contact_uid: uid,
  phone: '+15550100',
  email: `${uid}@example.com`,
  opt_out_sms: false,
  opt_out_email: false,
  location_uid: 'loc_a',
  last_seen_at: null,
  ...fields,
});

const phoneOf = async (contacts: LocalPodiumContacts, uid: string) => {
  const lookup = await contacts.getContact(uid);
  return lookup.status === 'found' ? lookup.contact.phone : lookup.status;
};

/**
 * The live lookup of the local CRM as the server's provider makes it: on the embedded engine
 * a copy per contact spares the round trip, and a copy never outlives a write; on a Postgres
 * server (other writers) every lookup reads the table.
 */
describe(`the local CRM's live lookups on ${TEST_ENGINE}`, () => {
  let database: Database;
  let close: () => Promise<void>;
  let provider: LocalPodiumContacts;
  /** Another instance over the same database, as the demo seeder and an import hold. */
  let writer: LocalPodiumContacts;
  let reads: jest.SpyInstance;

  beforeAll(async () => {
    ({ database, close } = await openEngineDatabase());
    await database.open(4);
    provider = (await createPodiumContacts({ provider: 'local' }, database)) as LocalPodiumContacts;
    writer = new LocalPodiumContacts(database);
    reads = jest.spyOn(database, 'queryPrepared');
  });
  afterAll(() => close());
  beforeEach(() => reads.mockClear());

  it('reads the table once per contact on PGlite, on every lookup on a server', async () => {
    await writer.upsert([contact('ctc_c1')]);
    for (let i = 0; i < 3; i++) {
      await expect(phoneOf(provider, 'ctc_c1')).resolves.toBe('+15550100');
    }
    expect(reads).toHaveBeenCalledTimes(TEST_ENGINE === 'pglite' ? 1 : 3);
  });

  it('answers the new row after a write through any instance over the database', async () => {
    await writer.upsert([contact('ctc_c2')]);
    await expect(phoneOf(provider, 'ctc_c2')).resolves.toBe('+15550100');

    await writer.upsert([contact('ctc_c2', { phone: '+15550199' })]);

    await expect(phoneOf(provider, 'ctc_c2')).resolves.toBe('+15550199');
  });

  it('a contact created after a not-found lookup is found at once', async () => {
    await expect(phoneOf(provider, 'ctc_c3')).resolves.toBe('not_found');
    await writer.upsert([contact('ctc_c3')]);
    await expect(phoneOf(provider, 'ctc_c3')).resolves.toBe('+15550100');
  });

  it('an erasure (row deleted, then invalidated) leaves no copy behind', async () => {
    await writer.upsert([contact('ctc_c4')]);
    await expect(phoneOf(provider, 'ctc_c4')).resolves.toBe('+15550100');

    await database.execute(`DELETE FROM podium_contacts WHERE contact_uid = $1`, ['ctc_c4']);
    await provider.invalidate('ctc_c4');

    await expect(phoneOf(provider, 'ctc_c4')).resolves.toBe('not_found');
  });

  // The copies exist on PGlite only (this suite's server role is a superuser, which row-level
  // security does not bind; row-security.e2e-spec covers the server under a plain role).
  const onPglite = TEST_ENGINE === 'pglite' ? it : it.skip;

  onPglite("keeps a copy per row-level-security scope: an unscoped copy never answers a bound key's", async () => {
    await writer.upsert([contact('ctc_c5', { location_uid: 'loc_a' })]);
    await expect(phoneOf(provider, 'ctc_c5')).resolves.toBe('+15550100');

    const elsewhere = { kind: 'locations', locations: ['loc_b'] } as const;
    await expect(withDatabaseScope(elsewhere, () => phoneOf(provider, 'ctc_c5'))).resolves.toBe(
      'not_found',
    );
    // And the bound key's not-found copy never hides the contact from its own location.
    const own = { kind: 'locations', locations: ['loc_a'] } as const;
    await expect(withDatabaseScope(own, () => phoneOf(provider, 'ctc_c5'))).resolves.toBe(
      '+15550100',
    );
  });

  it('a lookup that read the old row while a write landed does not cache it', async () => {
    await writer.upsert([contact('ctc_c6')]);
    // The lookup's read waits until the write and its invalidation are done.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const original = database.queryPrepared.bind(database);
    reads.mockImplementationOnce(async (...args: Parameters<Database['queryPrepared']>) => {
      const rows = await original(...args);
      await gate;
      return rows;
    });
    const stale = phoneOf(provider, 'ctc_c6');
    await new Promise((resolve) => setImmediate(resolve));
    await writer.upsert([contact('ctc_c6', { phone: '+15550177' })]);
    release();
    await stale; // its own answer may be either row; what matters is what it leaves behind

    await expect(phoneOf(provider, 'ctc_c6')).resolves.toBe('+15550177');
  });
});
