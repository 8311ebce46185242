import { Database } from '@app/database';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';

import { ConversationMemory } from '../src/conversations/conversation-memory.service';
import { HistoryPurge } from '../src/conversations/history-purge';
import { type FakeQdrant, startFakeQdrant } from './fakes/qdrant-server';
import { type AdapterApp, bootAdapterApp, ops, tenantA, tenantB } from './support/adapter-fixtures';
import { message } from './support/auth-fixtures';
import { readViews } from './support/redteam';
import { scanDatabase, scanQdrant } from './support/residue-scan';
import { seededRandom } from './support/seeded';
import { mcpClient, request } from './support/tenant-isolation-fixtures';

type Key = { key: string };
const bearer = (k: Key) => ({ authorization: `Bearer ${k.key}` });
const SHARED = 'ctc_rt_shared';
/** What every probe asks: it names none of the words looked for (answers echo the query). */
const QUERY = 'please note this for my espresso refund';

/**
 * The erasure red team with location-bound keys: tenant B forgets a contact id that tenant A
 * uses too (a phone number two tenants share). Afterwards no route, for any key, returns a
 * word B's history held, no table (every text column, every index definition) or Qdrant
 * point holds one, a replayed export stores none of it again, and A's history under the same
 * id is whole. Run on both vector stores (Qdrant: the contract server).
 */
describe.each(['pgvector', 'qdrant'])('erasure red team on %s (e2e)', (provider) => {
  const { seed } = seededRandom(`erasure-redteam ${provider}`);
  // Three letters first: "zr15…" reads as an IBAN's country and check digits, and the
  // redactor masked a probe word on some seeds (the probe then never saw it).
  const word = (n: number) => `zrx${((seed * 7919 + n * 104729) % 2 ** 31).toString(36)}y`;
  const bWords = [0, 1, 2, 3].map(word);
  const aWords = [10, 11].map(word);
  let fake: FakeQdrant | undefined;
  let a: AdapterApp;
  const mcp = new Map<Key, Client>();

  const call = (method: string, path: string, key: Key, body?: unknown) =>
    request(`${a.t.url}${path}`, method, bearer(key), body);
  const bHistory = bWords.map((w, i) => ({
    ...message(SHARED, 'loc_b', i, `B-FORGOTTEN please note ${w} for my espresso refund.`),
    conversation_uid: `conv_rt_b_${i % 2}`,
    message_uid: `msg_rt_b_${i}`,
  }));
  const aHistory = aWords.map((w, i) => ({
    ...message(SHARED, 'loc_a', 10 + i, `A-OWN please note ${w} for my espresso refund.`),
    conversation_uid: 'conv_rt_a',
  }));
  const residue = async (needles: string[]) => [
    ...(await scanDatabase(a.t.app.get(Database), needles)),
    ...(fake
      ? await scanQdrant({ url: fake.url }, [...fake.engine.collections.keys()], needles)
      : []),
  ];

  beforeAll(async () => {
    fake = provider === 'qdrant' ? await startFakeQdrant() : undefined;
    a = await bootAdapterApp({
      CONTEXT_TIMEOUT_MS: '5000',
      ...(fake ? { VECTOR_PROVIDER: 'qdrant', QDRANT_URL: fake.url } : {}),
    });
    expect((await call('POST', '/ingest/conversations', tenantB, bHistory)).status).toBe(200);
    expect((await call('POST', '/ingest/conversations', tenantA, aHistory)).status).toBe(200);
    for (const key of [tenantA, tenantB, ops]) {
      mcp.set(key, await mcpClient(a.t.url, key.key));
    }
  }, 120_000);
  afterAll(async () => {
    for (const client of mcp.values()) {
      await client.close();
    }
    await a?.t.close();
    await fake?.close();
  });

  /**
   * Every read route, for every key, about the shared contact and across contacts. The query
   * names none of the words looked for (answers echo it).
   */
  const everyRead = async () => {
    const query = QUERY;
    const texts: string[] = [];
    for (const key of [tenantA, tenantB, ops]) {
      const views = await readViews(a.t.url, key, mcp.get(key) as Client, SHARED, query);
      texts.push(...Object.values(views).map((v) => v.text));
      const across = await call('POST', '/search', key, { query, top_k: 50 });
      texts.push(across.text);
    }
    return texts.join('\n');
  };

  it('a location forget still pending (its purge cut short, as a crash or a large history leaves it) already hides every window it covers', async () => {
    const contact = 'ctc_rt_pending';
    const words = [20, 21].map(word);
    const pending = words.map((w, i) => ({
      ...message(contact, 'loc_b', 40 + i, `B-PENDING please note ${w} for my espresso refund.`),
      conversation_uid: 'conv_rt_pending',
    }));
    expect((await call('POST', '/ingest/conversations', tenantB, pending)).status).toBe(200);
    const read = async () => {
      const texts: string[] = [];
      for (const key of [tenantB, ops]) {
        const views = await readViews(a.t.url, key, mcp.get(key) as Client, contact, QUERY);
        texts.push(...Object.values(views).map((v) => v.text));
        texts.push((await call('POST', '/search', key, { query: QUERY, top_k: 50 })).text);
      }
      return texts.join('\n');
    };
    expect(await read()).toContain(words[0]);
    const report = await a.t.app
      .get(ConversationMemory)
      .forgetContact(contact, ['loc_b'], new Date(), AbortSignal.abort());
    expect(report.pending).toBe(true);
    const seen = await read();
    expect(words.filter((w) => seen.includes(w))).toEqual([]);
    // The purge finishes it; nothing is left.
    const purge = a.t.app.get(HistoryPurge);
    purge.kick();
    await purge.idle();
    expect(await residue(words)).toEqual([]);
  });

  it('finds B’s words before the forget, in reads and in the store (the probes see what they look for)', async () => {
    expect(await everyRead()).toContain(bWords[0]);
    expect((await residue(bWords)).length).toBeGreaterThan(0);
  });

  it('after B’s forget no route, for any key, returns a word of B’s history; A’s under the same id stays', async () => {
    const forget = await call('POST', '/contacts/forget', tenantB, { contact_uid: SHARED });
    expect(forget.json()).toMatchObject({ location_uids: ['loc_b'] });
    if (forget.json().pending) {
      const purge = a.t.app.get(HistoryPurge);
      purge.kick();
      await purge.idle();
    }
    const seen = await everyRead();
    expect(bWords.filter((w) => seen.includes(w))).toEqual([]);
    expect(seen).not.toContain('B-FORGOTTEN');
    expect(seen).toContain(aWords[0]);
    const own = await call('POST', '/search', tenantA, {
      query: `note ${aWords[0]} espresso refund`,
      contact_uid: SHARED,
    });
    expect(own.text).toContain(aWords[0]);
    const receipt = await call(
      'GET',
      `/contacts/forget/receipts/${String(forget.json().receipt_id)}`,
      tenantB,
    );
    expect(receipt.json().completed_at).not.toBeNull();
  });

  it('after B’s forget no table, index or Qdrant point holds a word B said, nor B’s message ids', async () => {
    expect(await residue([...bWords, ...bHistory.map((m) => m.message_uid)])).toEqual([]);
    expect((await residue(aWords)).length).toBeGreaterThan(0); // A's stays
  });

  it('two tenants in one conversation id: each forget removes its own windows and words, never the other’s', async () => {
    const contact = 'ctc_rt_oneconv';
    const [wa, wb, wa2] = [30, 31, 32].map(word);
    const turn = (loc: string, minute: number, w: string) => ({
      ...message(contact, loc, minute, `${loc} please note ${w} for my espresso refund.`),
      conversation_uid: 'conv_rt_one',
    });
    // Interleaved writes, so each tenant's rebuild of the conversation runs after the other's.
    expect(
      (await call('POST', '/ingest/conversations', tenantA, [turn('loc_a', 0, wa)])).status,
    ).toBe(200);
    expect(
      (await call('POST', '/ingest/conversations', tenantB, [turn('loc_b', 1, wb)])).status,
    ).toBe(200);
    expect(
      (await call('POST', '/ingest/conversations', tenantA, [turn('loc_a', 2, wa2)])).status,
    ).toBe(200);
    const reads = async (key: Key) =>
      (await call('POST', '/search', key, { query: QUERY, contact_uid: contact, top_k: 20 })).text;
    expect(await reads(tenantA)).toContain(wa2);
    expect(await reads(tenantB)).toContain(wb);
    await call('POST', '/contacts/forget', tenantA, { contact_uid: contact });
    const seen = (await reads(tenantA)) + (await reads(ops));
    expect([wa, wa2].filter((w) => seen.includes(w))).toEqual([]);
    expect(await residue([wa, wa2])).toEqual([]);
    expect(await reads(tenantB)).toContain(wb);
    await call('POST', '/contacts/forget', tenantB, { contact_uid: contact });
    expect(await residue([wa, wa2, wb, contact])).toEqual([]);
  });

  it('a replayed export of the forgotten messages stores none of them again', async () => {
    expect((await call('POST', '/ingest/conversations', tenantB, bHistory)).status).toBe(200);
    expect((await call('POST', '/ingest/conversations', ops, bHistory)).status).toBe(200);
    expect(await everyRead()).not.toContain(bWords[1]);
    expect(await residue(bWords)).toEqual([]);
  });
});
