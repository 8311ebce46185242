import { Database } from '@app/database';

import { HistoryPurge } from '../src/conversations/history-purge';
import { HistoryRetention } from '../src/conversations/history-retention';
import { type FakeQdrant, startFakeQdrant } from './fakes/qdrant-server';
import { ops, tenantA, tenantB } from './support/adapter-fixtures';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { TEST_ENGINE } from './support/postgres';

/**
 * Issue 36: a message id is unique per location, not across the deployment. Two tenants
 * store the same Podium uid (under one contact and conversation id too, a phone number both
 * know) and neither's write reads, moves, blocks or deletes the other's row. An unbound write
 * (ops key, CLI, webhook) still corrects a lone row's location. Old code: A's batch got 409
 * `message_owned_elsewhere`, and forgets deleted by bare id.
 */

type Key = { key: string };
type StoreKind = 'pgvector' | 'qdrant';

const UID = 'msg_shared_0001';
const CONTACT = 'ctc_shared';
const A_TEXT = 'A-TEXT the walnut table leg arrived cracked, refund order 9931.';
const B_TEXT = 'B-TEXT the oak chair seat arrived scratched, refund order 5520.';
const QUERY = 'arrived refund order';

const record = (location: string, text: string, extra: object = {}) => ({
  conversation_uid: 'conv_shared',
  contact_uid: CONTACT,
  location_uid: location,
  channel: 'sms',
  occurred_at: '2026-01-05T10:00:00.000Z',
  sender: 'customer',
  text,
  message_uid: UID,
  ...extra,
});

interface Row {
  location_uid: string | null;
  channel: string;
  text: string;
}

describe.each<StoreKind>(['pgvector', 'qdrant'])(
  `per-location message ids on %s (e2e, real app on ${TEST_ENGINE})`,
  (kind) => {
    let fake: FakeQdrant | undefined;
    let t: TestApp;

    beforeAll(async () => {
      fake = kind === 'qdrant' ? await startFakeQdrant() : undefined;
      t = await bootTestApp({
        API_KEYS: [tenantA.line, tenantB.line, ops.line].join(','),
        HISTORY_RETENTION_DAYS: '30',
        ...(fake ? { VECTOR_PROVIDER: 'qdrant', QDRANT_URL: fake.url } : {}),
      });
    });
    afterAll(async () => {
      await t?.close();
      await fake?.close();
    });

    const post = (path: string, key: Key, body: unknown) =>
      postJson<unknown>(`${t.url}${path}`, body, { authorization: `Bearer ${key.key}` });
    const ingest = async (key: Key, records: unknown[]) => {
      const res = await post('/ingest/conversations', key, records);
      expect({ status: res.status, body: res.body }).toMatchObject({
        status: 200,
        body: { failed: [] },
      });
    };
    /** What a key reads back through /search and /context. */
    const reads = async (key: Key) => {
      const search = await post('/search', key, { query: QUERY, contact_uid: CONTACT });
      const context = await post('/context', key, {
        transcript: QUERY,
        contact_uid: CONTACT,
        timeout_ms: 5000,
      });
      expect([search.status, context.status]).toEqual([200, 200]);
      return JSON.stringify([search.body, context.body]);
    };
    const rows = (uid = UID) =>
      t.app.get(Database).query<Row>(
        `SELECT location_uid, channel, text FROM conversation_messages
           WHERE message_id = $1 ORDER BY location_uid`,
        [uid],
      );
    /** Window texts per location, read from the store itself. */
    const windows = async (location: string, contact = CONTACT): Promise<string[]> => {
      const texts = fake
        ? [...fake.engine.collection('podium_conversations').points.values()]
            .filter((p) => p.payload.contact_uid === contact && p.payload.location_uid === location)
            .map((p) => String(p.payload.text))
        : (
            await t.app
              .get(Database)
              .query<{ content: string }>(
                `SELECT content FROM podium_conversations WHERE contact_uid = $1 AND location_uid = $2`,
                [contact, location],
              )
          ).map((w) => w.content);
      return texts.sort();
    };

    it('tenants A and B store the same uid with different text, and each reads only its own', async () => {
      await ingest(tenantB, [record('loc_b', B_TEXT)]);
      // Old code: 409 message_owned_elsewhere here (A learnt the uid exists in another tenant).
      await ingest(tenantA, [record('loc_a', A_TEXT)]);
      expect(await rows()).toEqual([
        { location_uid: 'loc_a', channel: 'sms', text: A_TEXT },
        { location_uid: 'loc_b', channel: 'sms', text: B_TEXT },
      ]);
      const readA = await reads(tenantA);
      expect(readA).toContain('A-TEXT');
      expect(readA).not.toContain('B-TEXT');
      const readB = await reads(tenantB);
      expect(readB).toContain('B-TEXT');
      expect(readB).not.toContain('A-TEXT');
    });

    it("B's re-send (other text, other channel) changes only B's row, never A's", async () => {
      await ingest(tenantB, [record('loc_b', 'B-EDIT other words', { channel: 'email' })]);
      expect(await rows()).toEqual([
        { location_uid: 'loc_a', channel: 'sms', text: A_TEXT },
        // Stored once: a known message corrects its channel, never its text.
        { location_uid: 'loc_b', channel: 'email', text: B_TEXT },
      ]);
      expect(await windows('loc_a')).toEqual([expect.stringContaining('A-TEXT')]);
      expect(await reads(tenantA)).not.toMatch(/B-TEXT|B-EDIT/);
    });

    it('an unbound write naming a location of a uid held by several updates that row alone', async () => {
      await ingest(ops, [record('loc_a', A_TEXT, { channel: 'webchat' })]);
      await ingest(ops, [record('loc_c', 'C-TEXT a third shop, same uid')]);
      expect(await rows()).toEqual([
        { location_uid: 'loc_a', channel: 'webchat', text: A_TEXT },
        { location_uid: 'loc_b', channel: 'email', text: B_TEXT },
        { location_uid: 'loc_c', channel: 'sms', text: 'C-TEXT a third shop, same uid' },
      ]);
    });

    it("an unbound write moves a lone uid's row to the corrected location (the webhook's and CLI's fix)", async () => {
      const lone = { message_uid: 'msg_lone_0001', conversation_uid: 'conv_lone' };
      await ingest(ops, [record('loc_wrong', 'LONE-TEXT mislabelled', lone)]);
      await ingest(ops, [record('loc_right', 'LONE-TEXT mislabelled', lone)]);
      expect(await rows('msg_lone_0001')).toEqual([
        { location_uid: 'loc_right', channel: 'sms', text: 'LONE-TEXT mislabelled' },
      ]);
      expect(await windows('loc_wrong')).toEqual([]);
    });

    it("forgetting B's contact leaves A's row and windows under the same uid", async () => {
      const res = await fetch(`${t.url}/contacts/${CONTACT}/history`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${tenantB.key}` },
      });
      expect(res.status).toBe(200);
      const purge = t.app.get(HistoryPurge);
      purge.kick();
      await purge.idle();
      // Old deletes went by bare id: A's and C's rows went with B's.
      expect((await rows()).map((r) => r.location_uid)).toEqual(['loc_a', 'loc_c']);
      expect(await windows('loc_b')).toEqual([]);
      expect(await windows('loc_a')).toEqual([expect.stringContaining('A-TEXT')]);
      expect(await reads(tenantA)).toContain('A-TEXT');
      expect(await reads(tenantB)).not.toMatch(/A-TEXT|B-TEXT/);
    });

    it("retention deletes B's expired message alone, not A's recent one under the same uid", async () => {
      // Unscoped, as every sweep is: old deletes by bare id took A's row with B's.
      // Another contact: B forgot CONTACT above, and its tombstone refuses B's new messages.
      const aged = {
        message_uid: 'msg_aged_0001',
        conversation_uid: 'conv_aged',
        contact_uid: 'ctc_aged',
      };
      await ingest(tenantB, [record('loc_b', 'B-AGED text', aged)]);
      await ingest(tenantA, [
        record('loc_a', 'A-RECENT text', { ...aged, occurred_at: '2026-03-01T10:00:00.000Z' }),
      ]);
      expect(await rows('msg_aged_0001')).toHaveLength(2);
      await t.app.get(HistoryRetention).sweep(new Date('2026-03-10T00:00:00.000Z'));
      expect(await rows('msg_aged_0001')).toEqual([
        { location_uid: 'loc_a', channel: 'sms', text: 'A-RECENT text' },
      ]);
      expect(await windows('loc_a', 'ctc_aged')).toEqual([expect.stringContaining('A-RECENT')]);
    });
  },
);
