import { randomBytes } from 'node:crypto';

import { type Database } from '@app/database';
import { DatabaseRefreshTokenStore } from '@app/podium';

import { ContactTombstones } from '../src/relational/contact-tombstones';
import { WebhookInbox } from '../src/relational/webhook-inbox';
import { openEngineDatabase, TEST_ENGINE } from './support/postgres';

/**
 * The Podium integration's state in SQL, on this project's engine: tombstones in time,
 * leases held by a token, dead letters whose payload is dropped after the retention, and the
 * rotated refresh token encrypted at rest.
 */
describe(`webhook and Podium state on ${TEST_ENGINE}`, () => {
  let database: Database;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ database, close } = await openEngineDatabase());
    await database.open(4);
  });
  afterAll(() => close());

  describe('contact tombstones', () => {
    const at = (iso: string) => new Date(iso);
    let sut: ContactTombstones;
    beforeAll(() => {
      sut = new ContactTombstones(database);
    });

    it('drop only messages written before the deletion', async () => {
      await sut.recordDeleted(['+15550100', 'ctc-1'], at('2026-12-01T10:00:00Z'));
      await expect(sut.lookup('+15550100', at('2026-12-01T09:59:00Z'))).resolves.toEqual({
        kind: 'deleted',
      });
      await expect(sut.lookup('+15550100', at('2026-12-01T10:00:01Z'))).resolves.toBeUndefined();
      await expect(sut.lookup('someone-else', at('2026-12-01T09:00:00Z'))).resolves.toBeUndefined();
    });

    it('are lifted by a later contact event naming the id, never by an earlier one', async () => {
      await expect(sut.lift(['+15550100'], at('2026-12-01T09:00:00Z'))).resolves.toBe(0);
      await expect(sut.lookup('+15550100', at('2026-12-01T09:59:00Z'))).resolves.toEqual({
        kind: 'deleted',
      });
      await expect(sut.lift(['+15550100', 'new-uid'], at('2026-12-02T00:00:00Z'))).resolves.toBe(1);
      await expect(sut.lookup('+15550100', at('2026-12-01T09:59:00Z'))).resolves.toBeUndefined();
      // The other id of the deleted contact keeps its tombstone.
      await expect(sut.lookup('ctc-1', at('2026-12-01T09:59:00Z'))).resolves.toEqual({
        kind: 'deleted',
      });
    });

    it('keep the newest deletion when events arrive out of order', async () => {
      await sut.recordDeleted(['ctc-2'], at('2026-12-05T00:00:00Z'));
      await sut.recordDeleted(['ctc-2'], at('2026-12-01T00:00:00Z'));
      await expect(sut.lookup('ctc-2', at('2026-12-03T00:00:00Z'))).resolves.toEqual({
        kind: 'deleted',
      });
    });

    it('follow merges to the survivor, and a deleted survivor drops older messages', async () => {
      await sut.recordMerged('ctc-a', 'ctc-b', at('2026-12-01T00:00:00Z'));
      await sut.recordMerged('ctc-b', 'ctc-c', at('2026-12-02T00:00:00Z'));
      await expect(sut.lookup('ctc-a', at('2026-12-03T00:00:00Z'))).resolves.toEqual({
        kind: 'merged',
        into: 'ctc-c',
      });
      await sut.recordDeleted(['ctc-c'], at('2026-12-04T00:00:00Z'));
      await expect(sut.lookup('ctc-a', at('2026-12-03T00:00:00Z'))).resolves.toEqual({
        kind: 'deleted',
      });
      // Merges are not lifted: a merged-away Podium uid is never reused.
      await expect(sut.lift(['ctc-a'], at('2026-12-09T00:00:00Z'))).resolves.toBe(0);
    });

    it('forget deletions past the retention, keep merges', async () => {
      await sut.recordDeleted(['ctc-old'], at('2026-12-01T00:00:00Z'));
      await database.execute(
        `UPDATE podium_contact_tombstones SET event_at = now() - interval '15 days'
         WHERE contact_uid IN ('ctc-old', 'ctc-a')`,
      );
      await expect(sut.purgeExpired()).resolves.toBeGreaterThanOrEqual(1);
      const left = await database.query<{ contact_uid: string }>(
        `SELECT contact_uid FROM podium_contact_tombstones WHERE contact_uid IN ('ctc-old', 'ctc-a')`,
      );
      expect(left).toEqual([{ contact_uid: 'ctc-a' }]);
    });
  });

  describe('webhook inbox', () => {
    let sut: WebhookInbox;
    const envelope = (text: string) => ({ data: { body: text }, metadata: { eventType: 'x' } });
    const row = async (id: string) =>
      (
        await database.query<{ payload: unknown; last_error: string | null; processed: boolean }>(
          `SELECT payload, last_error, processed_at IS NOT NULL AS processed
           FROM podium_webhook_events WHERE event_id = $1`,
          [id],
        )
      )[0];
    beforeAll(() => {
      sut = new WebhookInbox(database);
    });

    it('lets only the current lease holder renew and settle an event', async () => {
      await sut.insert('evt-1', 'message.received', envelope('hello'));
      const [mine] = await sut.claim(1, 60_000);
      expect(mine.lease_token).toEqual(expect.any(String));
      await expect(sut.renew(mine, 60_000)).resolves.toBe(true);
      await expect(sut.renew({ ...mine, lease_token: 'forged' }, 60_000)).resolves.toBe(false);
      // The lease runs out while the event waits in a slow batch; another replica claims it.
      await database.execute(
        `UPDATE podium_webhook_events SET locked_until = now() - interval '1 second'`,
      );
      const [theirs] = await sut.claim(1, 60_000);
      expect(theirs.event_id).toBe('evt-1');
      expect(theirs.lease_token).not.toBe(mine.lease_token);
      await expect(sut.renew(mine, 60_000)).resolves.toBe(false);
      await sut.markProcessed(mine);
      expect((await row('evt-1')).processed).toBe(false);
      await sut.markProcessed(theirs);
      expect(await row('evt-1')).toMatchObject({ processed: true, payload: null });
      await expect(sut.renew(theirs, 60_000)).resolves.toBe(false);
    });

    it('drops a dead letter’s payload after the retention, keeping id and error', async () => {
      await sut.insert('evt-2', 'message.received', envelope('Pat, 4410 Via Lactea'));
      await sut.insert('evt-3', 'message.received', envelope('no retention for me'));
      const claimed = await sut.claim(2, 60_000);
      const lease = (id: string) => claimed.find((e) => e.event_id === id)!;
      await sut.markFailed(lease('evt-2'), 'WebhookPayloadError: bad');
      await sut.markFailed(lease('evt-3'), 'WebhookPayloadError: bad', false);
      expect((await row('evt-2')).payload).toEqual(envelope('Pat, 4410 Via Lactea'));
      expect((await row('evt-3')).payload).toBeNull();

      await expect(sut.redactDeadLetters(24)).resolves.toBe(0);
      await database.execute(
        `UPDATE podium_webhook_events SET failed_at = now() - interval '25 hours'
         WHERE event_id = 'evt-2'`,
      );
      await expect(sut.redactDeadLetters(24)).resolves.toBe(1);
      expect(await row('evt-2')).toEqual({
        payload: null,
        last_error: 'WebhookPayloadError: bad',
        processed: false,
      });
    });

    it('retries later, gives an unfinished lease back, counts the backlog, purges old ids', async () => {
      await sut.insert('evt-4', 'message.received', envelope('retry me'));
      await sut.insert('evt-5', 'message.received', envelope('interrupted'));
      const claimed = await sut.claim(2, 60_000);
      const lease = (id: string) => claimed.find((e) => e.event_id === id)!;
      await expect(sut.backlog()).resolves.toEqual({
        events: 2,
        oldestSeconds: expect.any(Number),
      });

      await sut.scheduleRetry(lease('evt-4'), 'Error (ECONNRESET)', 60_000);
      const [retry] = await database.query<{ error: string; held: boolean; later: boolean }>(
        `SELECT last_error AS error, locked_until IS NOT NULL AS held,
           next_attempt_at > now() + interval '50 seconds' AS later
         FROM podium_webhook_events WHERE event_id = 'evt-4'`,
      );
      expect(retry).toEqual({ error: 'Error (ECONNRESET)', held: false, later: true });
      // Shutdown: the interrupted attempt is handed back and not counted.
      await sut.release([lease('evt-5'), { event_id: 'evt-4', lease_token: 'forged' }]);
      const again = await sut.claim(2, 60_000);
      expect(again.map((e) => [e.event_id, e.attempts])).toEqual([['evt-5', 1]]);

      await sut.markProcessed(again[0]);
      await expect(sut.backlog()).resolves.toMatchObject({ events: 1 });
      await database.execute(
        `UPDATE podium_webhook_events SET processed_at = now() - interval '15 days'
         WHERE event_id = 'evt-5'`,
      );
      await expect(sut.purgeProcessed()).resolves.toBe(1);
      expect(await row('evt-5')).toBeUndefined();
      expect((await row('evt-1')).processed).toBe(true);
    });

    it('takes back, on PGlite only, the leases a killed process left (its data dir admits one)', async () => {
      await sut.insert('evt-6', 'message.received', envelope('claimed, then kill -9'));
      const [orphan] = await sut.claim(1, 60_000);
      // The process dies holding the lease; the next one to open the database calls this.
      const released = await sut.releaseOrphanedLeases();
      const again = await sut.claim(1, 60_000);
      if (TEST_ENGINE === 'pglite') {
        expect(released).toBe(1);
        // Due at once, and the killed attempt still counts toward the dead letters.
        expect(again.map((e) => [e.event_id, e.attempts])).toEqual([['evt-6', 2]]);
        await sut.markProcessed(again[0]);
      } else {
        // On a server another live replica may hold it: the claim tests its presence instead.
        expect(released).toBe(0);
        expect(again).toEqual([]);
        await sut.markProcessed(orphan);
      }
      expect((await row('evt-6')).processed).toBe(true);
    });
  });

  describe('podium credentials', () => {
    const key = randomBytes(32);

    it('keeps the rotated refresh token encrypted, for its own chain and key only', async () => {
      const sut = new DatabaseRefreshTokenStore(database, key);
      await expect(sut.load('configured-1')).resolves.toBeUndefined();
      await sut.save('configured-1', 'rotated-secret-token-2');
      await expect(sut.load('configured-1')).resolves.toBe('rotated-secret-token-2');
      const [row] = await database.query<{ ciphertext: string; seed_sha256: string }>(
        `SELECT ciphertext, seed_sha256 FROM podium_credentials`,
      );
      expect(row.ciphertext).not.toContain('rotated-secret-token-2');
      expect(row.ciphertext).not.toContain(Buffer.from('rotated-secret').toString('base64'));
      expect(row.seed_sha256).not.toContain('configured-1');
      // A newly configured token starts a new chain: the stored one is not used.
      await expect(sut.load('configured-2')).resolves.toBeUndefined();
      // Another key (rotated config, or a copied database) cannot read it.
      await expect(
        new DatabaseRefreshTokenStore(database, randomBytes(32)).load('configured-1'),
      ).resolves.toBeUndefined();
      // Re-encrypted under a fresh IV each time.
      await sut.save('configured-1', 'rotated-secret-token-2');
      const [again] = await database.query<{ ciphertext: string }>(
        `SELECT ciphertext FROM podium_credentials`,
      );
      expect(again.ciphertext).not.toBe(row.ciphertext);
    });
  });
});
