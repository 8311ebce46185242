import { DependencyError } from '@app/common';
import { Database } from '@app/database';
import { PODIUM_CONTACTS, type PodiumContacts } from '@app/podium';
import { PgVectorStore, type VectorRecord } from '@app/vector';

import { ConversationMemory } from '../src/conversations/conversation-memory.service';
import { HistoryPurge } from '../src/conversations/history-purge';
import { HistoryRetention } from '../src/conversations/history-retention';
import { exactTime } from '../src/relational/history-tombstones';
import { type SearchResponseDto } from '../src/retrieval/search.dto';
import {
  contactEventData,
  deliverPodiumEvent,
  podiumContact,
  podiumEvent,
} from './fakes/podium-webhooks';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { TEST_ENGINE } from './support/postgres';

/**
 * Issue 36, erasure: forget by membership (not by the caller's clock), per-location
 * tombstones, hidden rows excluded before any LIMIT, every valid id forgettable, deletes that
 * never wait on the cache, merges that honour pending forgets, retention that survives a
 * crash, and the deletion receipt. Each test names the old behaviour it pins down.
 */

const SECRET = 'whsec_erasure_e2e';
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe(`erasure (e2e, real app on ${TEST_ENGINE})`, () => {
  let t: TestApp;
  let memory: ConversationMemory;

  beforeAll(async () => {
    t = await bootTestApp({ PODIUM_WEBHOOK_SECRET: SECRET, HISTORY_RETENTION_DAYS: '30' });
    memory = t.app.get(ConversationMemory);
  });
  afterAll(async () => {
    await t?.close();
  });

  const sql = <T>(text: string, params: unknown[] = []) =>
    t.app.get(Database).query<T>(text, params);
  const count = async (table: string, contact: string) =>
    (
      await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE contact_uid = $1`, [
        contact,
      ])
    )[0].n;
  const message = (
    contact: string,
    conversation: string,
    at: number,
    text: string,
    location = 'loc_a',
  ) => ({
    conversation_uid: conversation,
    contact_uid: contact,
    location_uid: location,
    channel: 'sms',
    occurred_at: iso(at),
    sender: 'customer',
    text,
  });
  const ingest = (records: unknown[]) => postJson(`${t.url}/ingest/conversations`, records);
  const search = async (contact: string | undefined, query: string, topK = 5) =>
    (
      await postJson<SearchResponseDto>(`${t.url}/search`, {
        query,
        ...(contact ? { contact_uid: contact } : {}),
        top_k: topK,
      })
    ).body.hits.map((h) => h.content);
  const windowTexts = async (contact: string) =>
    (
      await sql<{ content: string }>(
        `SELECT content FROM podium_conversations WHERE contact_uid = $1`,
        [contact],
      )
    ).map((r) => r.content);
  /** A forget that stops at once and starts no purge: the state a crash right after leaves. */
  const forgetPending = async (contact: string, locations?: string[]) => {
    const kick = memory.onPendingForget;
    memory.onPendingForget = undefined;
    try {
      return await memory.forgetContact(contact, locations, new Date(), AbortSignal.abort());
    } finally {
      memory.onPendingForget = kick;
    }
  };
  const finishPurge = async () => {
    const purge = t.app.get(HistoryPurge);
    purge.kick();
    await purge.idle();
  };

  it('a whole-contact forget removes every message and window of the contact, whatever their dates (old: a turn dated after the forget kept its window, with every earlier turn)', async () => {
    const contact = 'ctc_er_membership';
    const now = Date.now();
    const early = [0, 1, 2].map((i) =>
      message(contact, 'conv_m', now - (10 - i) * MINUTE, `The safe code is 4711 part ${i}.`),
    );
    // Dated four minutes ahead (inside the allowed skew): later than the forget's clock.
    const ahead = message(contact, 'conv_m', now + 4 * MINUTE, 'Please call me back tomorrow.');
    expect((await ingest([...early, ahead])).status).toBe(200);
    expect((await windowTexts(contact)).join('\n')).toContain('safe code');

    const forgotten = await fetch(`${t.url}/contacts/${contact}/history`, { method: 'DELETE' });
    expect(forgotten.status).toBe(200);
    expect(await count('conversation_messages', contact)).toBe(0);
    expect(await windowTexts(contact)).toEqual([]);
    expect(await search(contact, 'safe code')).toEqual([]);
    expect(await count('conversation_windows', contact)).toBe(0);
  });

  it('refuses a message dated more than a few minutes ahead (400 occurred_at_in_future; old: year 2999 was stored and outlived every forget)', async () => {
    const contact = 'ctc_er_future';
    const response = await ingest([
      message(contact, 'conv_fut', Date.now() - MINUTE, 'An ordinary message.'),
      message(contact, 'conv_fut', Date.UTC(2999, 0, 1), 'A message from the far future.'),
    ]);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ error: 'occurred_at_in_future' });
    expect(await count('conversation_messages', contact)).toBe(0);
    // Hostile: just past the bound is refused too; just inside it is stored.
    expect(
      (await ingest([message(contact, 'conv_fut', Date.now() + 6 * MINUTE, 'Six minutes ahead.')]))
        .status,
    ).toBe(400);
    expect(
      (await ingest([message(contact, 'conv_fut', Date.now() + 4 * MINUTE, 'Four minutes ahead.')]))
        .status,
    ).toBe(200);
  });

  it('a location forget never cancels a pending whole-contact forget (old: it marked the whole one purged, and the forgotten messages loaded again)', async () => {
    const contact = 'ctc_er_scopes';
    const base = Date.now() - 60 * MINUTE;
    await ingest([
      message(contact, 'conv_s1', base, 'My locker combination is 9-19-29.', 'loc_a'),
      message(contact, 'conv_s2', base + MINUTE, 'Deliver to the side gate.', 'loc_b'),
    ]);
    const whole = await forgetPending(contact);
    expect(whole.pending).toBe(true);
    const scoped = await memory.forgetContact(contact, ['loc_b'], new Date(), Infinity);
    expect(scoped.pending).toBe(false);
    const [tombstone] = await sql<{ pending: boolean }>(
      `SELECT purged_at IS NULL AS pending FROM history_tombstones
       WHERE contact_uid = $1 AND location_uid = ''`,
      [contact],
    );
    expect(tombstone.pending).toBe(true);
    // A rebuild of the conversation now must not bring the forgotten turn back.
    await memory.rebuild([{ contact_uid: contact, conversation_uid: 'conv_s1' }]);
    expect(await search(contact, 'locker combination')).toEqual([]);

    await finishPurge();
    expect(await count('conversation_messages', contact)).toBe(0);
    expect(await windowTexts(contact)).toEqual([]);
    // The purge row is gone: the contact is not hidden from cross-contact search for ever.
    expect(await count('podium_conversation_purges', contact)).toBe(0);
    expect(await count('history_tombstones', contact)).toBe(0);
  });

  it('forgotten rows are excluded before the LIMIT of the BM25 leg and of a large contact’s own index (old: hidden rows took the top k and the answer was empty)', async () => {
    const database = t.app.get(Database);
    // A store over the app's database with a low threshold, so this contact gets its own index.
    const store = new PgVectorStore(database, 3);
    const contact = 'ctc_er_topk';
    const unit = (i: number) =>
      Array.from({ length: 512 }, (_, j) => (j === i ? 1 : j === 0 ? 0.5 : 0));
    const row = (
      n: number,
      content: string,
      embedding: number[],
    ): VectorRecord<'conversations'> => ({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      content,
      embedding,
      payload: {
        contact_uid: contact,
        location_uid: 'loc_a',
        conversation_uid: `conv_k${n}`,
        channel: 'sms',
        occurred_at: iso(Date.now() - MINUTE),
      },
    });
    await store.upsert(
      'conversations',
      [1, 2, 3, 4, 5].map((n) => row(n, `customer: refund refund refund for order ${n}`, unit(1))),
    );
    await store.maintain();
    const [cutoff] = await sql<{ now: string }>(`SELECT ${exactTime('clock_timestamp()')} AS now`);
    await store.hideContact(contact, cutoff.now);
    await store.upsert('conversations', [row(9, 'customer: a refund question', unit(2))]);
    const visible = row(9, '', []).id;

    const lexical = await store.lexicalSearch('conversations', {
      text: 'refund',
      topK: 1,
      filter: { contact_uid: contact },
    });
    expect(lexical.map((h) => h.id)).toEqual([visible]);
    const hybrid = await store.hybridSearch('conversations', {
      text: 'refund',
      embedding: unit(1),
      topK: 1,
      filter: { contact_uid: contact },
    });
    expect(hybrid.lexical.map((h) => h.id)).toEqual([visible]);
    expect(hybrid.dense.map((h) => h.id)).toEqual([visible]);
    const acrossContacts = await store.lexicalSearch('conversations', { text: 'refund', topK: 50 });
    expect(acrossContacts.map((h) => h.payload.contact_uid)).not.toContain(contact);
    await store.deleteContact(contact);
    await store.maintain();
  });

  it('forgets any valid id, up to 128 characters, by URL or by body, and never echoes an id it refuses (old: 414 past 100 characters)', async () => {
    const contact = `ctc_${'x'.repeat(124)}`;
    expect(contact).toHaveLength(128);
    await ingest([message(contact, 'conv_long', Date.now() - MINUTE, 'Long id history.')]);
    const byUrl = await fetch(`${t.url}/contacts/${contact}/history`, { method: 'DELETE' });
    expect(byUrl.status).toBe(200);
    await ingest([message(contact, 'conv_long2', Date.now(), 'Said after the first forget.')]);
    const byBody = await postJson<{ receipt_id: string }>(`${t.url}/contacts/forget`, {
      contact_uid: contact,
    });
    expect(byBody.status).toBe(200);
    expect(await count('conversation_messages', contact)).toBe(0);

    const tooLong = `ctc_${'y'.repeat(600)}`;
    const refusals = [
      await fetch(`${t.url}/contacts/${tooLong}/history`, { method: 'DELETE' }),
      await fetch(`${t.url}/contacts/forget`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ contact_uid: tooLong }),
      }),
    ];
    expect(refusals[0].status).toBe(414);
    for (const response of refusals) {
      expect(response.status).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(await response.text()).not.toContain('yyyyyyyyyy');
    }
  });

  it('stores a contact.deleted delivery while the cache is down, and the forget completes (old: refused with the cache down)', async () => {
    const contacts = t.app.get<PodiumContacts>(PODIUM_CONTACTS);
    const invalidate = contacts.invalidate.bind(contacts);
    let cacheUp = false;
    contacts.invalidate = (uid) =>
      cacheUp ? invalidate(uid) : Promise.reject(new DependencyError('cache_unavailable', 'down'));
    const contact = 'ctc_er_nocache';
    try {
      await ingest([message(contact, 'conv_nc', Date.now() - MINUTE, 'Ship to the red door.')]);
      const deleted = podiumEvent(
        'contact.deleted',
        contactEventData({ before: podiumContact(contact) }),
      );
      const delivery = await deliverPodiumEvent(`${t.url}/webhooks/podium`, SECRET, deleted);
      expect(delivery.status).toBe(202);
      const forget = await postJson<{ receipt_id: string }>(`${t.url}/contacts/forget`, {
        contact_uid: contact,
      });
      expect(forget.status).toBe(200);
      expect(await count('conversation_messages', contact)).toBe(0);
      const waiting = await fetch(`${t.url}/contacts/forget/receipts/${forget.body.receipt_id}`);
      const receipt = (await waiting.json()) as { completed_at: string | null };
      expect(receipt.completed_at).toBeNull();
      // The cache comes back: the purge job reaches it and the receipt completes.
      cacheUp = true;
      await finishPurge();
      const done = await fetch(`${t.url}/contacts/forget/receipts/${forget.body.receipt_id}`);
      expect(((await done.json()) as { completed_at: string | null }).completed_at).not.toBeNull();
    } finally {
      contacts.invalidate = invalidate;
    }
  });

  it('a merge moves nothing a pending forget covers, in one step under the contacts’ locks (old: the forgotten windows surfaced under the survivor)', async () => {
    const from = 'ctc_er_merge_from';
    const to = 'ctc_er_merge_to';
    const base = Date.now() - 30 * MINUTE;
    await ingest([message(from, 'conv_mf', base, 'My gate code is 5521.')]);
    await ingest([message(to, 'conv_mt', base, 'Leave parcels with the neighbour.')]);
    expect((await forgetPending(from)).pending).toBe(true);
    await ingest([
      message(from, 'conv_mf2', Date.now() + MINUTE, 'Said after the forget: blue van.'),
    ]);

    await memory.reassignContact(from, to);
    expect((await search(to, 'gate code')).join('\n')).not.toContain('gate code');
    expect((await windowTexts(to)).join('\n')).not.toContain('gate code');
    expect((await windowTexts(to)).join('\n')).toContain('blue van');
    expect(await count('conversation_messages', from)).toBe(0);
    expect(await count('podium_conversations', from)).toBe(0);
    expect(await count('history_tombstones', from)).toBe(0);
  });

  it('retention finishes after a crash between its deletion and its rebuild (old: the windows of expired text stayed searchable for good)', async () => {
    const contact = 'ctc_er_retention';
    const old = Date.now() - 40 * 24 * 60 * MINUTE;
    await ingest([
      message(contact, 'conv_r', old, 'Expired: my old passport number story.'),
      message(contact, 'conv_r', Date.now() - MINUTE, 'Recent: the sofa is blue.'),
    ]);
    const retention = t.app.get(HistoryRetention);
    const rebuild = memory.rebuild.bind(memory);
    memory.rebuild = () => Promise.reject(new Error('crash'));
    try {
      await expect(retention.sweep()).rejects.toThrow('crash');
    } finally {
      memory.rebuild = rebuild;
    }
    expect(await count('conversation_messages', contact)).toBe(1);
    await retention.sweep();
    const texts = (await windowTexts(contact)).join('\n');
    expect(texts).not.toContain('passport');
    expect(texts).toContain('sofa is blue');
    expect((await sql<{ n: number }>(`SELECT count(*)::int AS n FROM history_rebuilds`))[0].n).toBe(
      0,
    );
  });

  it('answers a forget with a receipt that shows when each derived store was cleared, and never the id (old: no receipt)', async () => {
    const contact = 'ctc_er_receipt';
    await ingest([message(contact, 'conv_rc', Date.now() - MINUTE, 'Receipt test text.')]);
    const forget = await postJson<{ receipt_id: string; pending: boolean }>(
      `${t.url}/contacts/forget`,
      { contact_uid: contact },
    );
    expect(forget.body.receipt_id).toMatch(/^[0-9a-f-]{36}$/);
    const response = await fetch(`${t.url}/contacts/forget/receipts/${forget.body.receipt_id}`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).not.toContain(contact);
    const receipt = JSON.parse(text) as {
      completed_at: string | null;
      stores: Array<{ store: string; cleared_at: string | null; applies: boolean }>;
    };
    expect(receipt.completed_at).not.toBeNull();
    expect(receipt.stores.map((s) => s.store)).toEqual([
      'messages',
      'windows',
      'postings_and_statistics',
      'contact_indexes',
      'vector_points',
      'webhook_payloads',
      'caches',
    ]);
    for (const store of receipt.stores.filter((s) => s.applies)) {
      expect(store.cleared_at).not.toBeNull();
    }
    const unknown = await fetch(
      `${t.url}/contacts/forget/receipts/${'0'.repeat(8)}-0000-4000-8000-000000000000`,
    );
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: 'receipt_not_found' });
    expect((await fetch(`${t.url}/contacts/forget/receipts/not-a-uuid`)).status).toBe(400);
  });
});
