import { type Database } from '@app/database';
import { type LocalContact, LocalPodiumContacts } from '@app/podium';

import { openEngineDatabase, TEST_ENGINE } from './support/postgres';

const contact = (uid: string, fields: Partial<LocalContact> = {}): LocalContact => ({
  contact_uid: uid,
  name: `Name ${uid}`,
  phone: '+15550100',
  email: `${uid}@example.com`,
  opt_out_sms: false,
  opt_out_email: false,
  location_uid: 'loc_a',
  last_seen_at: '2026-11-01T09:00:00.000Z',
  ...fields,
});

/**
 * The embedded CRM's table on this project's engine: what an upsert replaces, what a
 * listing returns, and the live lookup the /context path reads.
 */
describe(`the embedded CRM (podium_contacts) on ${TEST_ENGINE}`, () => {
  let database: Database;
  let close: () => Promise<void>;
  let sut: LocalPodiumContacts;

  beforeAll(async () => {
    ({ database, close } = await openEngineDatabase());
    await database.open(4);
    sut = new LocalPodiumContacts(database);
  });
  afterAll(() => close());

  it('replaces every field of a known contact, a null included', async () => {
    await sut.upsert([contact('ctc_1')]);
    await sut.upsert([
      contact('ctc_1', { phone: null, location_uid: null, last_seen_at: null, opt_out_sms: true }),
    ]);

    await expect(sut.getContact('ctc_1')).resolves.toEqual({
      status: 'found',
      contact: {
        contact_uid: 'ctc_1',
        phone: null,
        email: 'ctc_1@example.com',
        opt_out_sms: true,
        opt_out_email: false,
        location_uid: null,
        last_seen_at: null,
        location_uids: [],
      },
    });
  });

  it('takes the last entry of a contact named twice in one call', async () => {
    await sut.upsert([contact('ctc_2', { name: 'First' }), contact('ctc_2', { name: 'Last' })]);
    await expect(sut.list(10, ['loc_a'])).resolves.toContainEqual({
      contact_uid: 'ctc_2',
      name: 'Last',
      location_uid: 'loc_a',
    });
  });

  it('lists by id up to the limit, in the locations asked for (none: nothing)', async () => {
    await sut.upsert([
      contact('ctc_b3', { location_uid: 'loc_b' }),
      contact('ctc_b1', { location_uid: 'loc_b', last_seen_at: null }),
      contact('ctc_b2', { location_uid: 'loc_b', name: undefined }),
    ]);

    await expect(sut.list(2, ['loc_b'])).resolves.toEqual([
      { contact_uid: 'ctc_b1', name: 'Name ctc_b1', location_uid: 'loc_b' },
      { contact_uid: 'ctc_b2', name: null, location_uid: 'loc_b' },
    ]);
    await expect(sut.list(10, [])).resolves.toEqual([]);
    const everyone = await sut.list(100);
    expect(everyone.map((c) => c.contact_uid)).toEqual([
      'ctc_1',
      'ctc_2',
      'ctc_b1',
      'ctc_b2',
      'ctc_b3',
    ]);
    await expect(sut.count()).resolves.toBe(5);
    await expect(sut.getContact('ctc_missing')).resolves.toEqual({ status: 'not_found' });
  });

  it('is up while the table answers, down while the database is not open', async () => {
    await expect(sut.status()).resolves.toEqual({ status: 'up' });
    const other = await openEngineDatabase();
    const closed = new LocalPodiumContacts(other.database);
    await expect(closed.isHealthy()).resolves.toBe(false);
    await other.close();
  });
});
