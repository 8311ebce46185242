import { Database } from '@app/database';

import { ConversationMemory } from '../src/conversations/conversation-memory.service';
import { HistoryPurge } from '../src/conversations/history-purge';
import { HistoryRetention } from '../src/conversations/history-retention';
import {
  contactEventData,
  deliverPodiumEvent,
  podiumContact,
  podiumEvent,
} from './fakes/podium-webhooks';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { persistentEngineEnv, TEST_ENGINE } from './support/postgres';
import { startRedis, type TestRedis } from './support/redis';
import { seedResidueHistory } from './support/residue-history';
import { scanDatabase, scanRedis } from './support/residue-scan';
import { waitUntil } from './support/wait';

/**
 * Issue 36's residue scan: after a forget completes (inline; after a crash mid-purge and a
 * restart) and after a retention sweep, no table (every text column of every table, found
 * through information_schema), index definition or cache key holds the contact's id or any
 * word it said. The tombstone keeps a keyed hash, which is neither.
 */

const SECRET = 'whsec_residue_e2e';
const MINUTE = 60_000;
// Random words per run, so nothing else in the store can contain them by chance.
const SEED = Math.floor(Math.random() * 2 ** 31);

console.log(`erasure-residue seed ${SEED}`);
const word = (n: number) => `zq${((SEED * 7919 + n * 104729) % 2 ** 31).toString(36)}x`;

describe(`erasure residue scan (e2e, real app on ${TEST_ENGINE}, Redis cache)`, () => {
  let redis: TestRedis;
  let store: Awaited<ReturnType<typeof persistentEngineEnv>>;
  let t: TestApp;

  const boot = () =>
    bootTestApp({
      ...store.env,
      PODIUM_WEBHOOK_SECRET: SECRET,
      HISTORY_RETENTION_DAYS: '30',
      REDIS_URL: redis.url,
    });

  beforeAll(async () => {
    redis = await startRedis();
    store = await persistentEngineEnv();
    t = await boot();
  });
  afterAll(async () => {
    await t?.close();
    await store?.release();
    await redis?.stop();
  });

  const db = () => t.app.get(Database);
  /** A contact's history by every route: the ingest API, a webhook, and a dead-lettered event. */
  const history = async (contact: string, n: number, at = Date.now() - 30 * MINUTE) => {
    const words = [0, 1, 2, 3].map((i) => word(n * 10 + i));
    const event = await seedResidueHistory(t.url, SECRET, contact, words, at);
    // A delivery that kept failing: dead-lettered with its payload.
    await db().execute(
      `INSERT INTO podium_webhook_events (event_id, type, payload, attempts, failed_at, last_error)
       VALUES ($1, 'message.received', $2, 20, now(), 'gave up')`,
      [`evt_dead_${n}_${SEED}`, JSON.stringify(event)],
    );
    await waitUntil('the webhook message stored', async () => {
      const rows = await db().query(
        `SELECT 1 FROM conversation_messages WHERE contact_uid = $1 AND strpos(text, $2) > 0`,
        [contact, words[3]],
      );
      return rows.length > 0;
    });
    // A live lookup, so the cache holds the contact too.
    await postJson(`${t.url}/context`, {
      transcript: `the word ${words[0]}`,
      contact_uid: contact,
    });
    return words;
  };
  const residue = async (needles: string[]) => [
    ...(await scanDatabase(db(), needles)),
    ...(await scanRedis(redis.url, needles)),
  ];
  const purgeNow = async () => {
    const purge = t.app.get(HistoryPurge);
    purge.kick();
    await purge.idle();
  };

  it('finds the contact before the forget (the scan sees what it looks for)', async () => {
    const contact = 'ctc_residue_probe';
    const words = await history(contact, 1);
    const found = await residue([contact, ...words]);
    const places = new Set(found.map((f) => f.where));
    expect([...places]).toEqual(
      expect.arrayContaining([
        'conversation_messages.text',
        'podium_conversations.content',
        'podium_webhook_events.payload',
      ]),
    );
  });

  it('nothing of the contact is left after a forget completes', async () => {
    const contact = 'ctc_residue_forget';
    const words = await history(contact, 2);
    const forget = await postJson<{ receipt_id: string; pending: boolean }>(
      `${t.url}/contacts/forget`,
      { contact_uid: contact },
    );
    expect(forget.status).toBe(200);
    if (forget.body.pending) {
      await purgeNow();
    }
    expect(await residue([contact, ...words])).toEqual([]);
  });

  it('nothing is left after a crash mid-forget and a restart', async () => {
    const contact = 'ctc_residue_crash';
    const words = await history(contact, 3);
    const memory = t.app.get(ConversationMemory);
    memory.onPendingForget = undefined;
    // The forget commits its tombstone and stops at once: the purge has not started.
    const report = await memory.forgetContact(contact, undefined, new Date(), AbortSignal.abort());
    expect(report.pending).toBe(true);
    await t.close();
    t = await boot();
    await purgeNow();
    expect(await residue([contact, ...words])).toEqual([]);
  });

  it('a merged-away contact leaves no id in the webhook tombstones once forgotten, nor does its survivor (old: podium_contact_tombstones kept both)', async () => {
    const [from, to] = ['ctc_residue_merged', 'ctc_residue_survivor'];
    const fromWords = await history(from, 5);
    const toWords = await history(to, 6);
    const merged = podiumEvent(
      'contact.merged',
      contactEventData({ before: podiumContact(from), after: podiumContact(to) }),
    );
    expect((await deliverPodiumEvent(`${t.url}/webhooks/podium`, SECRET, merged)).status).toBe(202);
    await waitUntil('the merge processed', async () => {
      const rows = await db().query(`SELECT 1 FROM conversation_messages WHERE contact_uid = $1`, [
        from,
      ]);
      return rows.length === 0;
    });
    for (const contact of [to, from]) {
      const forget = await postJson<{ pending: boolean }>(`${t.url}/contacts/forget`, {
        contact_uid: contact,
      });
      expect(forget.status).toBe(200);
      if (forget.body.pending) {
        await purgeNow();
      }
    }
    expect(await residue([from, to, ...fromWords, ...toWords])).toEqual([]);
  });

  it('nothing of the expired history is left after a retention sweep', async () => {
    const contact = 'ctc_residue_retention';
    const words = await history(contact, 4, Date.now() - 40 * 24 * 60 * MINUTE);
    // The dead-lettered copy is the inbox's to expire (PODIUM_WEBHOOK_DEAD_LETTER_RETENTION_HOURS).
    await db().execute(`DELETE FROM podium_webhook_events WHERE event_id = $1`, [
      `evt_dead_4_${SEED}`,
    ]);
    await t.app.get(HistoryRetention).sweep();
    expect(await scanDatabase(db(), words)).toEqual([]);
  });
});
