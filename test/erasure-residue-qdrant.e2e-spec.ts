import { Database } from '@app/database';

import { ConversationMemory } from '../src/conversations/conversation-memory.service';
import { HistoryPurge } from '../src/conversations/history-purge';
import { HistoryRetention } from '../src/conversations/history-retention';
import { type FakeQdrant, startFakeQdrant } from './fakes/qdrant-server';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { persistentEngineEnv } from './support/postgres';
import { seedResidueHistory } from './support/residue-history';
import { scanDatabase, scanQdrant } from './support/residue-scan';
import { seededRandom } from './support/seeded';
import { waitUntil } from './support/wait';

/**
 * The residue scan with VECTOR_PROVIDER=qdrant (the contract server): after a forget, after a
 * crash mid-forget and a restart, and after a retention sweep, no Qdrant point (its text, its
 * payload fields, its id) and no table holds the contact's id or any word it said.
 */

const SECRET = 'whsec_residue_qdrant';
const MINUTE = 60_000;

describe('erasure residue scan on Qdrant (e2e, real app on the Qdrant contract server)', () => {
  const { seed } = seededRandom('erasure-residue-qdrant');
  const word = (n: number) => `zq${((seed * 7919 + n * 104729) % 2 ** 31).toString(36)}x`;
  let fake: FakeQdrant;
  let store: Awaited<ReturnType<typeof persistentEngineEnv>>;
  let t: TestApp;

  const boot = () =>
    bootTestApp({
      ...store.env,
      VECTOR_PROVIDER: 'qdrant',
      QDRANT_URL: fake.url,
      PODIUM_WEBHOOK_SECRET: SECRET,
      HISTORY_RETENTION_DAYS: '30',
    });

  beforeAll(async () => {
    fake = await startFakeQdrant();
    store = await persistentEngineEnv();
    t = await boot();
  });
  afterAll(async () => {
    await t?.close();
    await store?.release();
    await fake?.close();
  });

  const db = () => t.app.get(Database);
  /** A contact's history by the ingest API and a webhook, then a live lookup. */
  const history = async (contact: string, n: number, at = Date.now() - 30 * MINUTE) => {
    const words = [0, 1, 2, 3].map((i) => word(n * 10 + i));
    await seedResidueHistory(t.url, SECRET, contact, words, at);
    await waitUntil('the webhook message in a Qdrant point', async () => {
      const found = await scanQdrant(
        { url: fake.url },
        [...fake.engine.collections.keys()],
        [words[3]],
      );
      return found.length > 0;
    });
    await postJson(`${t.url}/context`, {
      transcript: `the word ${words[0]}`,
      contact_uid: contact,
    });
    return words;
  };
  const residue = async (needles: string[]) => [
    ...(await scanDatabase(db(), needles)),
    ...(await scanQdrant({ url: fake.url }, [...fake.engine.collections.keys()], needles)),
  ];
  const purgeNow = async () => {
    const purge = t.app.get(HistoryPurge);
    purge.kick();
    await purge.idle();
  };

  it('finds the contact in Qdrant before the forget (the scan sees what it looks for)', async () => {
    const contact = 'ctc_qresidue_probe';
    const words = await history(contact, 1);
    const found = await residue([contact, ...words]);
    expect([...new Set(found.map((f) => f.where))]).toEqual(
      expect.arrayContaining(['qdrant podium_conversations', 'conversation_messages.text']),
    );
  });

  it('nothing of the contact is left in Qdrant or the database after a forget', async () => {
    const contact = 'ctc_qresidue_forget';
    const words = await history(contact, 2);
    const forget = await postJson<{ pending: boolean }>(`${t.url}/contacts/forget`, {
      contact_uid: contact,
    });
    expect(forget.status).toBe(200);
    if (forget.body.pending) {
      await purgeNow();
    }
    expect(await residue([contact, ...words])).toEqual([]);
  });

  it('nothing is left after a crash mid-forget and a restart', async () => {
    const contact = 'ctc_qresidue_crash';
    const words = await history(contact, 3);
    const memory = t.app.get(ConversationMemory);
    memory.onPendingForget = undefined;
    const report = await memory.forgetContact(contact, undefined, new Date(), AbortSignal.abort());
    expect(report.pending).toBe(true);
    await t.close();
    t = await boot();
    await purgeNow();
    expect(await residue([contact, ...words])).toEqual([]);
  });

  it('nothing of the expired history is left in Qdrant after a retention sweep', async () => {
    const contact = 'ctc_qresidue_retention';
    const words = await history(contact, 4, Date.now() - 40 * 24 * 60 * MINUTE);
    await t.app.get(HistoryRetention).sweep();
    expect(await scanQdrant({ url: fake.url }, [...fake.engine.collections.keys()], words)).toEqual(
      [],
    );
    expect(await scanDatabase(db(), words)).toEqual([]);
  });
});
