/**
 * Several replicas, one truth: three processes of the real service (`src/main.ts`) on one
 * Postgres and one Redis, behind a round-robin client, with a loopback OpenAI embedder (fast,
 * with a latency the scenarios vary so that rebuilds overlap) and a loopback Podium.
 *
 * After every scenario the store must equal what the stored messages derive: every
 * conversation's windows are exactly `chunkConversations` of its messages (no stale window
 * from an older snapshot, none missing), in the vector table and in the window ledger alike.
 *
 * Runs in the e2e-postgres project only: PGlite is one process by design.
 */
import { Database } from '@app/database';
import { Client } from 'pg';

import { type AppConfig } from '../src/config/app-config';
import { type ConversationMemory } from '../src/conversations/conversation-memory.service';
import { chunkConversations } from '../src/conversations/conversation-windows';
import { HistoryRetention } from '../src/conversations/history-retention';
import { type FakeOpenAi, startFakeOpenAi } from '../test/fakes/openai-server';
import {
  type FakePodium,
  podiumApiEnv,
  podiumContact,
  startFakePodium,
} from '../test/fakes/podium-server';
import {
  contactEventData,
  deliverPodiumEvent,
  podiumContact as eventContact,
  podiumEvent,
  podiumMessage,
} from '../test/fakes/podium-webhooks';
import { type AppProcess, startAppProcess } from './support/app-process';
import { createServerDatabase, type ServerDatabase } from './support/postgres';
import { startRedis, type TestRedis } from './support/redis';
import { seededRandom } from './support/seeded';
import { waitFor } from './support/wait';

const SECRET = 'whsec-multi-replica';
const REPLICAS = 3;
const BASE = Date.parse('2026-06-01T09:00:00Z');

interface Message {
  message_uid?: string;
  conversation_uid: string;
  contact_uid: string;
  channel: string;
  occurred_at: string;
  sender: 'customer' | 'agent';
  text: string;
}

/** An export: `conversations` of `turns` messages each for `contact`. */
function exportOf(contact: string, conversations: number, turns: number, tag: string): Message[] {
  const out: Message[] = [];
  for (let c = 0; c < conversations; c++) {
    for (let t = 0; t < turns; t++) {
      out.push({
        conversation_uid: `${tag}-conv-${c}`,
        contact_uid: contact,
        channel: 'sms',
        occurred_at: new Date(BASE + (c * 100 + t) * 60_000).toISOString(),
        sender: t % 2 === 0 ? 'customer' : 'agent',
        text: `${tag} conversation ${c} turn ${t}: the walnut dresser and its delivery`,
      });
    }
  }
  return out;
}

describe('several replicas on one Postgres and one Redis', () => {
  let database: ServerDatabase;
  let sql: Client;
  let redis: TestRedis;
  let openai: FakeOpenAi;
  let podium: FakePodium;
  let replicas: AppProcess[] = [];
  let delay: (texts: readonly string[]) => number = () => 0;
  let turn = 0;

  /** Waits (polling, no fixed sleep) until `check` holds. */
  const until = (what: string, check: () => boolean) =>
    waitFor(what, () => Promise.resolve(check() ? true : undefined));

  /** The round-robin client: each call goes to the next replica. */
  const next = () => replicas[turn++ % replicas.length];
  const post = async (app: AppProcess, path: string, body: unknown, method = 'POST') => {
    const response = await fetch(`${app.url}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  const start = () =>
    startAppProcess({
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      EMBEDDING_PROVIDER: 'openai',
      OPENAI_API_KEY: 'sk-test',
      OPENAI_BASE_URL: openai.baseURL,
      ...podiumApiEnv(podium),
      PODIUM_WEBHOOK_SECRET: SECRET,
      DATABASE_POOL_MAX: '6',
    });

  beforeAll(async () => {
    database = await createServerDatabase();
    sql = new Client({ connectionString: database.url });
    await sql.connect();
    redis = await startRedis();
    openai = await startFakeOpenAi({ embedDelayMs: (texts) => delay(texts) });
    podium = await startFakePodium();
    // The first boot migrates; the others start together once the schema is there.
    replicas = [await start()];
    replicas.push(...(await Promise.all(Array.from({ length: REPLICAS - 1 }, start))));
  });

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await sql?.end();
    await database?.drop();
    await redis?.stop();
    await openai?.close();
    await podium?.close();
  });

  const rows = async <T>(text: string, params: unknown[] = []) =>
    (await sql.query(text, params)).rows as T[];

  /** Stored windows (vectors and ledger) equal those the stored messages derive. */
  async function expectWindowsDerivedFromMessages(): Promise<void> {
    const messages = await rows<{
      conversation_uid: string;
      contact_uid: string;
      location_uid: string | null;
      channel: string;
      occurred_at: Date;
      sender: string;
      text: string;
    }>(
      `SELECT conversation_uid, contact_uid, location_uid, channel, occurred_at, sender, text
       FROM conversation_messages`,
    );
    const expected = chunkConversations(
      messages.map((m) => ({ ...m, occurred_at: m.occurred_at.toISOString() })),
    )
      .map((w) => w.id)
      .sort();
    const stored = (await rows<{ id: string }>('SELECT id FROM podium_conversations ORDER BY id'))
      .map((r) => r.id)
      .sort();
    const ledger = (
      await rows<{ id: string }>('SELECT window_id::text AS id FROM conversation_windows')
    )
      .map((r) => r.id)
      .sort();
    expect(stored).toEqual(expected);
    expect(ledger).toEqual(expected);
  }

  const inboxSettled = () =>
    waitFor(
      'every webhook event processed',
      async () => {
        const [row] = await rows<{ pending: number }>(
          `SELECT count(*)::int AS pending FROM podium_webhook_events
           WHERE processed_at IS NULL AND failed_at IS NULL`,
        );
        return row.pending === 0 ? true : undefined;
      },
      60_000,
    );

  it('webhooks for the same conversations on alternating replicas, and one export ingested on two at once', async () => {
    const CONVERSATIONS = 4;
    const TURNS = 10;
    const sent: string[] = [];
    const event = (c: number, t: number) => {
      const message = podiumMessage({
        body: `webhook conversation ${c} turn ${t}: the oak bookcase`,
        contactUid: `00000000-0000-0000-0000-00000000010${c}`,
        conversationUid: `wh-conv-${c}`,
        createdAt: new Date(BASE + (c * 100 + t) * 60_000).toISOString(),
      });
      sent.push(message.uid);
      return podiumEvent(t % 2 ? 'message.sent' : 'message.received', message);
    };
    const deliver = async (app: AppProcess, e: ReturnType<typeof event>) =>
      expect((await deliverPodiumEvent(`${app.url}/webhooks/podium`, SECRET, e)).status).toBe(202);
    const embedding = (text: string) =>
      until(`an embedding of “${text}”`, () =>
        openai.requests.some((r) => JSON.stringify(r.body.input).includes(text)),
      );

    // The turns but the last two, interleaved across conversations, round-robin, in bursts.
    const { random } = seededRandom('multi-replica delivery delays');
    delay = () => Math.floor(random() * 60);
    for (let t = 0; t < TURNS - 2; t++) {
      await Promise.all(
        Array.from({ length: CONVERSATIONS }, (_, c) => deliver(next(), event(c, t))),
      );
    }
    await inboxSettled();

    // Then per conversation the next-to-last turn on one replica, whose rebuild embeds slowly,
    // and the last turn on another while that rebuild is still under way: the later snapshot
    // must win, wherever each rebuild runs. Meanwhile one export goes to two replicas at once.
    const last = `turn ${TURNS - 1}:`;
    const nextToLast = `turn ${TURNS - 2}:`;
    delay = (texts) =>
      texts.some((t) => t.includes(nextToLast)) && !texts.some((t) => t.includes(last)) ? 800 : 0;
    const exported = exportOf('ctc-export', 6, 9, 'export');
    const [a, b] = [next(), next()];
    const [first, second] = await Promise.all([
      post(a, '/ingest/conversations', exported),
      post(b, '/ingest/conversations', exported),
      ...Array.from({ length: CONVERSATIONS }, async (_, c) => {
        await deliver(replicas[c % replicas.length], event(c, TURNS - 2));
        await embedding(`webhook conversation ${c} ${nextToLast}`);
        await deliver(replicas[(c + 1) % replicas.length], event(c, TURNS - 1));
      }),
    ]);
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    await inboxSettled();

    const stored = await rows<{ message_id: string }>(
      `SELECT message_id FROM conversation_messages WHERE conversation_uid LIKE 'wh-conv-%'`,
    );
    expect(stored.map((r) => r.message_id).sort()).toEqual([...sent].sort()); // none lost, none twice
    const [{ n }] = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM conversation_messages WHERE contact_uid = 'ctc-export'`,
    );
    expect(n).toBe(exported.length);
    // The export's windows are one full export's: what windowing the export itself gives.
    const exportWindows = await rows<{ id: string }>(
      `SELECT id FROM podium_conversations WHERE contact_uid = 'ctc-export'`,
    );
    expect(exportWindows.map((r) => r.id).sort()).toEqual(
      chunkConversations(exported)
        .map((w) => w.id)
        .sort(),
    );
    await expectWindowsDerivedFromMessages();
  });

  it('a forget on one replica while another rebuilds that contact leaves nothing, and nothing comes back', async () => {
    const contact = 'ctc-forget';
    const history = exportOf(contact, 3, 8, 'forget');
    const [a, b] = [next(), next()];
    // B's rebuild embeds slowly; A forgets the contact while B is inside it.
    delay = () => 1_500;
    const embedsBefore = openai.requests.length;
    const ingest = post(b, '/ingest/conversations', history);
    await until('B embedding the contact’s windows', () =>
      openai.requests
        .slice(embedsBefore)
        .some((r) => JSON.stringify(r.body.input).includes('forget conversation')),
    );
    const forget = await post(a, `/contacts/${contact}/history`, undefined, 'DELETE');
    expect(forget.status).toBe(200);
    delay = () => 0;
    await ingest; // whatever it reports, nothing of the contact may remain

    const leftovers = async () => ({
      windows: (
        await rows<{ n: number }>(
          `SELECT count(*)::int AS n FROM podium_conversations WHERE contact_uid = $1`,
          [contact],
        )
      )[0].n,
      messages: (
        await rows<{ n: number }>(
          `SELECT count(*)::int AS n FROM conversation_messages WHERE contact_uid = $1`,
          [contact],
        )
      )[0].n,
      ledger: (
        await rows<{ n: number }>(
          `SELECT count(*)::int AS n FROM conversation_windows WHERE contact_uid = $1`,
          [contact],
        )
      )[0].n,
    });
    expect(await leftovers()).toEqual({ windows: 0, messages: 0, ledger: 0 });
    // The same export again, on every replica: the tombstone keeps it out.
    for (const replica of replicas) {
      expect((await post(replica, '/ingest/conversations', history)).status).toBe(200);
    }
    expect(await leftovers()).toEqual({ windows: 0, messages: 0, ledger: 0 });
    await expectWindowsDerivedFromMessages();
  });

  it('kill -9 of a replica mid-ingest and mid-webhook-batch: the retry loses and duplicates nothing, and its leases are taken over', async () => {
    const victim = replicas[2];
    const survivors = replicas.slice(0, 2);
    delay = () => 400;
    // Webhooks: a batch the victim's worker has leased and is working through.
    const sent: string[] = [];
    for (let t = 0; t < 8; t++) {
      const message = podiumMessage({
        body: `crash conversation turn ${t}: the pine wardrobe`,
        contactUid: '00000000-0000-0000-0000-000000000200',
        conversationUid: 'crash-conv',
        createdAt: new Date(BASE + t * 60_000).toISOString(),
      });
      sent.push(message.uid);
      const ack = await deliverPodiumEvent(
        `${victim.url}/webhooks/podium`,
        SECRET,
        podiumEvent('message.received', message),
      );
      expect(ack.status).toBe(202);
    }
    // And an ingest in flight on the same replica.
    const exported = exportOf('ctc-crash', 4, 7, 'crash-export');
    const embedsBefore = openai.requests.length;
    const inFlight = post(victim, '/ingest/conversations', exported).catch(() => undefined);
    await until('the victim embedding the export', () =>
      openai.requests
        .slice(embedsBefore)
        .some((r) => JSON.stringify(r.body.input).includes('crash-export conversation')),
    );
    await waitFor('the victim holding webhook leases', async () => {
      const [row] = await rows<{ n: number }>(
        `SELECT count(*)::int AS n FROM podium_webhook_events
         WHERE processed_at IS NULL AND locked_until > now()`,
      );
      return row.n > 0 ? true : undefined;
    });
    await victim.kill9();
    await inFlight;
    replicas = survivors;
    delay = () => 0;

    // The retry: the export again, on a survivor; the webhook events are already ours (they
    // were acknowledged), and a survivor's worker takes over the dead replica's leases at its
    // next poll instead of when they run out (60 s).
    expect((await post(survivors[0], '/ingest/conversations', exported)).status).toBe(200);
    await waitFor(
      'the dead replica’s leased events processed by a survivor',
      async () => {
        const [row] = await rows<{ pending: number }>(
          `SELECT count(*)::int AS pending FROM podium_webhook_events
           WHERE processed_at IS NULL AND failed_at IS NULL`,
        );
        return row.pending === 0 ? true : undefined;
      },
      20_000,
    );
    const stored = await rows<{ message_id: string }>(
      `SELECT message_id FROM conversation_messages WHERE conversation_uid = 'crash-conv'`,
    );
    expect(stored.map((r) => r.message_id).sort()).toEqual([...sent].sort());
    const [{ n }] = await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM conversation_messages WHERE contact_uid = 'ctc-crash'`,
    );
    expect(n).toBe(exported.length);
    await expectWindowsDerivedFromMessages();
  });

  it('after a contact.deleted is acknowledged on one replica, no replica serves the contact’s live fields', async () => {
    const [a, b] = [replicas[0], replicas[1]];
    const live = async (app: AppProcess, phone: string) =>
      (
        await post(app, '/context', {
          transcript: 'where is my order',
          contact_uid: phone,
          timeout_ms: 5_000,
        })
      ).body.contact as Record<string, unknown>;
    const deletion = (uid: string, phone: string) =>
      podiumEvent('contact.deleted', contactEventData({ before: eventContact(uid, { phone }) }));

    // Cached on B, then deleted in Podium and acknowledged by A: B's copy is gone by then.
    const cached = podiumContact({ name: 'Robin Cached', phone: '+15550177' });
    podium.upsert(cached);
    expect((await live(b, '+15550177')).phone).toBe('+15550177');
    podium.remove(cached.uid);
    const first = await deliverPodiumEvent(
      `${a.url}/webhooks/podium`,
      SECRET,
      deletion(cached.uid, '+15550177'),
    );
    expect(first.status).toBe(202);
    expect(await live(b, '+15550177')).not.toHaveProperty('phone');

    // B's lookup is in flight at Podium, answered with the contact as it was, while Podium
    // deletes it and A acknowledges the event: the late answer must not be written back.
    const inFlight = podiumContact({ name: 'Robin In Flight', phone: '+15550188' });
    podium.upsert(inFlight);
    let release!: () => void;
    podium.script({ answerAfter: new Promise<void>((resolve) => (release = resolve)) });
    const asked = podium.contactRequests.length;
    const lookup = live(b, '+15550188');
    await until('B’s lookup at Podium', () => podium.contactRequests.length > asked);
    podium.remove(inFlight.uid);
    const second = await deliverPodiumEvent(
      `${a.url}/webhooks/podium`,
      SECRET,
      deletion(inFlight.uid, '+15550188'),
    );
    expect(second.status).toBe(202);
    // Answer only once A's worker has processed the event too (its own invalidation done):
    // nothing later would drop a copy written back now.
    await waitFor('the deletion processed', async () => {
      const [row] = await rows<{ done: boolean }>(
        'SELECT processed_at IS NOT NULL AS done FROM podium_webhook_events WHERE event_id = $1',
        [second.body.event_id],
      );
      return row?.done ? true : undefined;
    });
    release();
    await lookup; // began before the acknowledgement: it may still see the contact
    for (const app of [b, a, b]) {
      expect(await live(app, '+15550188')).not.toHaveProperty('phone');
    }
  });

  it('the hourly retention sweep runs on one replica at a time; rebuilds of one conversation queue across replicas', async () => {
    // Two replicas' databases (separate pools) on the same server, as two processes have.
    const [one, two] = [0, 1].map(() => new Database({ dataDir: '', databaseUrl: database.url }));
    await Promise.all([one.open(1536), two.open(1536)]);
    try {
      let finish!: () => void;
      const sweeping = new Promise<void>((resolve) => (finish = resolve));
      const purged: string[] = [];
      const retention = (name: string, db: Database) =>
        new HistoryRetention(
          {
            purgeBefore: async () => {
              purged.push(name);
              await sweeping;
              return { conversations: 0, inserted: 0, skipped: 0, removed: 0 };
            },
          } as unknown as ConversationMemory,
          db,
          { history: { retentionDays: 30 } } as AppConfig,
        );
      const first = retention('one', one).sweepIfLeader();
      await until('the first sweep running', () => purged.length > 0);
      await expect(retention('two', two).sweepIfLeader()).resolves.toEqual({ ran: false });
      finish();
      await expect(first).resolves.toMatchObject({ ran: true });
      await expect(retention('two', two).sweepIfLeader()).resolves.toMatchObject({ ran: true });
      expect(purged).toEqual(['one', 'two']);

      // A rebuild's lock: the second replica's work starts only once the first's has ended.
      const order: string[] = [];
      let release!: () => void;
      const held = one.withLocks('conversation', ['ctc\u001fconv', 'ctc\u001fother'], async () => {
        order.push('one starts');
        await new Promise<void>((resolve) => (release = resolve));
        order.push('one ends');
      });
      await until('the first lock held', () => order.length > 0);
      const queued = two.withLocks('conversation', ['ctc\u001fconv'], () => {
        order.push('two runs');
        return Promise.resolve();
      });
      await waitFor('the second replica waiting on the lock', async () => {
        const [row] = await rows<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
        );
        return row.n > 0 ? true : undefined;
      });
      release();
      await Promise.all([held, queued]);
      expect(order).toEqual(['one starts', 'one ends', 'two runs']);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
