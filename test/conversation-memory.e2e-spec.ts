import { Database } from '@app/database';
import { EmbeddingService } from '@app/embedding';
import { VECTOR_STORE, type VectorStore } from '@app/vector';
import fc from 'fast-check';

import { type ContextBundle } from '../src/context/context.dto';
import { ConversationMemory } from '../src/conversations/conversation-memory.service';
import { chunkConversations, type WindowMessage } from '../src/conversations/conversation-windows';
import { HistoryPurge } from '../src/conversations/history-purge';
import { HistoryRetention } from '../src/conversations/history-retention';
import { IngestService } from '../src/ingest/ingest.service';
import { type SearchResponseDto } from '../src/retrieval/search.dto';
import { deliverPodiumEvent, podiumEvent, podiumMessage } from './fakes/podium-webhooks';
import { type FakeQdrant, startFakeQdrant } from './fakes/qdrant-server';
import { bootTestApp, postJson, type TestApp } from './support/app';
import { TEST_ENGINE } from './support/postgres';
import { waitFor } from './support/wait';

/**
 * Issue 14 on both stores: messages stored once, windows rebuilt per conversation from all
 * stored messages (whatever route and split they came by), forgetting and retention.
 */

const SECRET = 'whsec_memory_e2e';
const T0 = Date.UTC(2026, 5, 10, 9, 0);
const at = (minute: number) => new Date(T0 + minute * 60_000).toISOString();

const TEXTS = [
  'Hi, the walnut dining table I ordered arrived with a cracked leg.',
  'Sorry to hear that! Can you send a photo of the leg?',
  'Sure, sending it now from my phone.',
  'Thanks, we will ship a replacement leg this week.',
  'yes',
  'Will it come with the screws too?',
  'Yes, a full hardware kit is included.',
  'yes',
  'Great, and can I keep the old leg?',
  'Of course, no need to return it.',
  'Perfect, thank you so much for the quick help.',
  'You are welcome, have a nice evening.',
];

const message = (contact: string, conversation: string, i: number, location = 'loc_main') => ({
  conversation_uid: conversation,
  contact_uid: contact,
  location_uid: location,
  channel: 'sms',
  occurred_at: at(i),
  sender: i % 2 ? 'agent' : 'customer',
  text: TEXTS[i % TEXTS.length],
});

interface StoredWindow {
  id: string;
  content: string;
  location_uid: string | null;
}

type StoreKind = 'pgvector' | 'qdrant';

describe.each<StoreKind>(['pgvector', 'qdrant'])(
  `conversation memory on %s (e2e, real app on ${TEST_ENGINE}, local embedder)`,
  (kind) => {
    let fake: FakeQdrant | undefined;
    let t: TestApp;
    let embedded: string[];

    beforeAll(async () => {
      fake = kind === 'qdrant' ? await startFakeQdrant() : undefined;
      t = await bootTestApp({
        PODIUM_WEBHOOK_SECRET: SECRET,
        HISTORY_RETENTION_DAYS: '30',
        ...(fake ? { VECTOR_PROVIDER: 'qdrant', QDRANT_URL: fake.url } : {}),
      });
      const embedding = t.app.get(EmbeddingService);
      const original = embedding.embedDocuments.bind(embedding);
      embedding.embedDocuments = (texts, signal) => {
        embedded.push(...texts);
        return original(texts, signal);
      };
    });
    beforeEach(() => {
      embedded = [];
    });
    afterAll(async () => {
      await t?.close();
      await fake?.close();
    });

    const sql = <T>(text: string, params: unknown[]) => t.app.get(Database).query<T>(text, params);

    /** The conversation windows stored for a contact, read from the store itself. */
    const windowsOf = async (contact: string): Promise<StoredWindow[]> => {
      const rows = fake
        ? [...fake.engine.collection('podium_conversations').points.values()]
            .filter((p) => p.payload.contact_uid === contact)
            .map((p) => ({
              id: String(p.id),
              content: String(p.payload.text),
              location_uid: (p.payload.location_uid as string | null) ?? null,
            }))
        : await sql<StoredWindow>(
            `SELECT id, content, location_uid FROM podium_conversations WHERE contact_uid = $1`,
            [contact],
          );
      return rows.sort((a, b) => a.id.localeCompare(b.id));
    };
    const expectedWindows = (messages: WindowMessage[]) =>
      chunkConversations(messages)
        .map((w) => ({ id: w.id, content: w.content, location_uid: w.location_uid }))
        .sort((a, b) => a.id.localeCompare(b.id));
    const messagesOf = async (contact: string) =>
      (
        await sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM conversation_messages WHERE contact_uid = $1`,
          [contact],
        )
      )[0].n;
    const ingest = (records: unknown[]) => t.app.get(IngestService).ingestConversations(records);
    const webhook = (contact: string, conversation: string, i: number, uid?: string) =>
      deliverPodiumEvent(
        `${t.url}/webhooks/podium`,
        SECRET,
        podiumEvent(
          i % 2 ? 'message.sent' : 'message.received',
          podiumMessage({
            uid,
            contactUid: contact,
            conversationUid: conversation,
            locationUid: 'loc_main',
            createdAt: at(i),
            body: TEXTS[i % TEXTS.length],
          }),
        ),
      );
    const context = (contact: string, transcript: string) =>
      postJson<ContextBundle>(`${t.url}/context`, {
        transcript,
        contact_uid: contact,
        timeout_ms: 3000,
      });

    it('half an export, webhooks for the rest, the full export again: the windows of one full export, each new window embedded once', async () => {
      const contact = `ctc_split_${kind}`;
      const full = TEXTS.map((_, i) => message(contact, 'conv_split', i));
      await ingest(full.slice(0, 6));
      for (let i = 6; i < full.length; i++) {
        const delivery = await webhook(contact, 'conv_split', i, `msg-split-${kind}-${i}`);
        expect(delivery.status).toBe(202);
        // Freshness with context: the new turn is retrievable within 2 s, with the turn before.
        await waitFor(
          `message ${i} in a window with its predecessor`,
          async () => {
            const stored = await windowsOf(contact);
            return (
              stored.some(
                (w) => w.content.includes(full[i].text) && w.content.includes(full[i - 1].text),
              ) || undefined
            );
          },
          2000,
        );
      }
      const beforeFinal = embedded.length;
      const report = await ingest(full);
      expect(report.inserted).toBe(0);
      expect(embedded.length).toBe(beforeFinal);
      expect(new Set(embedded).size).toBe(embedded.length);
      expect(await windowsOf(contact)).toEqual(expectedWindows(full));
      expect(await messagesOf(contact)).toBe(full.length);

      const bundle = await context(contact, 'will the replacement leg come with screws');
      expect(bundle.status).toBe(200);
      const excerpts = bundle.body.historical_excerpts.map((e) => e.content);
      expect(excerpts.length).toBeGreaterThan(0);
      expect(new Set(excerpts).size).toBe(excerpts.length);
      const lastWebhook = bundle.body.historical_excerpts.find((e) =>
        e.content.includes(full[5].text),
      );
      expect(lastWebhook?.content).toContain(full[4].text);
    });

    it('any split of a conversation into requests, in any order, with duplicates, stores the windows of one request (property)', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 9 }),
          fc.array(fc.nat(), { minLength: 1, maxLength: 12 }),
          fc.array(fc.nat(), { maxLength: 4 }),
          async (size, assignment, duplicates) => {
            const contact = `ctc_prop_${kind}_${run}`;
            // Conversation uids are unique (Podium's), and a message id hashes its conversation.
            const conversation = `conv_p_${kind}_${run++}`;
            const all = Array.from({ length: size }, (_, i) => message(contact, conversation, i));
            const parts = Math.max(1, Math.min(4, assignment.length));
            const requests: Array<typeof all> = Array.from({ length: parts }, () => []);
            all.forEach((m, i) =>
              requests[(assignment[i % assignment.length] ?? 0) % parts].push(m),
            );
            duplicates.forEach((d) => requests[d % parts].push(all[d % size]));
            for (const request of requests.filter((r) => r.length > 0)) {
              await ingest([...request].reverse());
            }
            expect(await windowsOf(contact)).toEqual(expectedWindows(all));
            expect(await messagesOf(contact)).toBe(size);
          },
        ),
        { numRuns: 8 },
      );
    });

    it('never mixes locations, and a re-ingest with the corrected location replaces the mislabelled windows', async () => {
      const contact = `ctc_loc_${kind}`;
      const wrong = [0, 1, 2].map((i) => message(contact, 'conv_loc', i, 'loc_wrong'));
      await ingest([...wrong, message(contact, 'conv_loc', 3, 'loc_other')]);
      expect((await windowsOf(contact)).map((w) => w.location_uid).sort()).toEqual([
        'loc_other',
        'loc_wrong',
      ]);
      await ingest([0, 1, 2].map((i) => message(contact, 'conv_loc', i, 'loc_other')));
      const stored = await windowsOf(contact);
      expect(stored.map((w) => w.location_uid)).toEqual(['loc_other']);
      expect(stored[0].content.split('\n')).toHaveLength(4);
      expect(await messagesOf(contact)).toBe(4);
    });

    it('stores a message once whether it comes with its uid, without it, or both in one request', async () => {
      const contact = `ctc_once_${kind}`;
      const plain = message(contact, 'conv_once', 0);
      const withUid = { ...plain, message_uid: `msg-once-${kind}` };
      await ingest([plain, withUid]);
      await ingest([withUid]);
      await ingest([{ ...message(contact, 'conv_once', 1), message_uid: `msg-once2-${kind}` }]);
      await ingest([message(contact, 'conv_once', 1)]);
      expect(await messagesOf(contact)).toBe(2);
      expect(await windowsOf(contact)).toEqual(
        expectedWindows([0, 1].map((i) => message(contact, 'conv_once', i))),
      );
    });

    it('forgets a contact everywhere; a late webhook for it stores nothing', async () => {
      const contact = `ctc_forget_${kind}`;
      await ingest(TEXTS.slice(0, 4).map((_, i) => message(contact, 'conv_f', i)));
      const live = await webhook(contact, 'conv_f', 4, `msg-forget-${kind}`);
      expect(live.status).toBe(202);
      await waitFor('webhook stored', async () => (await messagesOf(contact)) === 5 || undefined);

      const response = await fetch(`${t.url}/contacts/${contact}/history`, { method: 'DELETE' });
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ contact_uid: contact, location_uids: null });
      expect(await windowsOf(contact)).toEqual([]);
      expect(await messagesOf(contact)).toBe(0);
      const search = await postJson<SearchResponseDto>(`${t.url}/search`, {
        query: 'walnut dining table cracked leg',
        contact_uid: contact,
      });
      expect(search.body.hits).toEqual([]);
      expect((await context(contact, 'my walnut table leg')).body.historical_excerpts).toEqual([]);

      // The same message again under a new event id (Podium redelivering late), and a re-ingest.
      await webhook(contact, 'conv_f', 4, `msg-forget-${kind}`);
      await webhook(contact, 'conv_f', 3, `msg-forget-late-${kind}`);
      await ingest(TEXTS.slice(0, 4).map((_, i) => message(contact, 'conv_f', i)));
      await waitFor('webhooks processed', async () => {
        const [row] = await sql<{ n: number }>(
          `SELECT count(*)::int AS n FROM podium_webhook_events WHERE processed_at IS NULL`,
          [],
        );
        return row.n === 0 || undefined;
      });
      expect(await messagesOf(contact)).toBe(0);
      expect(await windowsOf(contact)).toEqual([]);
    });

    it('a forget that stops early is unreadable at once; the background purge finishes it', async () => {
      const contact = `ctc_forget_pending_${kind}`;
      const memory = t.app.get(ConversationMemory);
      const purge = t.app.get(HistoryPurge);
      await ingest([
        ...TEXTS.slice(0, 6).map((_, i) => message(contact, 'conv_p', i)),
        ...TEXTS.slice(0, 4).map((_, i) => message(contact, 'conv_q', i)),
      ]);
      expect((await windowsOf(contact)).length).toBeGreaterThan(1);

      // As if the inline time ran out at once, and no purge started (a crash right after).
      const kick = memory.onPendingForget;
      memory.onPendingForget = undefined;
      const stopped = new AbortController();
      stopped.abort();
      const forgetAt = new Date(T0 + 30 * 60_000);
      let report;
      try {
        report = await memory.forgetContact(contact, undefined, forgetAt, stopped.signal);
      } finally {
        memory.onPendingForget = kick;
      }
      expect(report).toMatchObject({ location_uids: null, conversations: 2, pending: true });
      expect(await messagesOf(contact)).toBe(10);
      const search = await postJson<SearchResponseDto>(`${t.url}/search`, {
        query: 'walnut dining table cracked leg',
        contact_uid: contact,
      });
      expect(search.body.hits).toEqual([]);
      expect((await context(contact, 'my walnut table leg')).body.historical_excerpts).toEqual([]);

      // The conversation goes on after the forget: only the new message is read, and kept.
      const later = {
        ...message(contact, 'conv_p', 40),
        text: 'The courier left the leg at the back door.',
      };
      await ingest([later]);
      expect(await windowsOf(contact)).toEqual(expect.arrayContaining(expectedWindows([later])));
      const found = await postJson<SearchResponseDto>(`${t.url}/search`, {
        query: 'courier left the leg at the back door',
        contact_uid: contact,
      });
      expect(found.body.hits.map((h) => h.content)).toEqual([expectedWindows([later])[0].content]);

      purge.kick();
      await purge.idle();
      expect(await messagesOf(contact)).toBe(1);
      expect(await windowsOf(contact)).toEqual(expectedWindows([later]));
      // Completed: the tombstone keeps a keyed hash of the id, not the id.
      expect(
        await sql(`SELECT 1 FROM history_tombstones WHERE contact_uid = $1`, [contact]),
      ).toEqual([]);
    });

    it('retention purges older messages and rebuilds the conversation from the rest', async () => {
      const contact = `ctc_retain_${kind}`;
      const old = [0, 1].map((i) => ({
        ...message(contact, 'conv_r', i),
        occurred_at: `2026-01-0${i + 1}T10:00:00.000Z`,
      }));
      const recent = [2, 3].map((i) => message(contact, 'conv_r', i));
      await ingest([...old, ...recent]);
      const result = await t.app.get(HistoryRetention).sweep(new Date(Date.UTC(2026, 5, 20)));
      expect(result.conversations).toBeGreaterThanOrEqual(1);
      expect(await windowsOf(contact)).toEqual(expectedWindows(recent));
      expect(await messagesOf(contact)).toBe(2);
    });

    it('reindex replaces windows stored before messages were kept, and leaves other legacy history alone', async () => {
      const contact = `ctc_legacy_${kind}`;
      const store = t.app.get<VectorStore>(VECTOR_STORE);
      const legacy = (conversation: string, id: string) => ({
        id,
        content: `customer: legacy text of ${conversation}`,
        embedding: Array.from({ length: 512 }, (_, i) => (i === 0 ? 1 : 0)),
        payload: {
          contact_uid: contact,
          conversation_uid: conversation,
          location_uid: 'loc_main',
          channel: 'sms',
          occurred_at: at(0),
        },
      });
      await store.upsert('conversations', [
        legacy('conv_old', '00000000-0000-5000-8000-000000000001'),
        legacy('conv_kept', '00000000-0000-5000-8000-000000000002'),
      ]);
      const messages = [0, 1, 2].map((i) => message(contact, 'conv_old', i));
      await ingest(messages);
      // A new message never removes history that exists only as windows.
      expect(await windowsOf(contact)).toHaveLength(3);
      const report = await t.app.get(ConversationMemory).reindex();
      expect(report.conversations).toBeGreaterThanOrEqual(1);
      expect((await windowsOf(contact)).map((w) => w.id).sort()).toEqual(
        [
          ...expectedWindows(messages).map((w) => w.id),
          '00000000-0000-5000-8000-000000000002',
        ].sort(),
      );
    });
  },
);
