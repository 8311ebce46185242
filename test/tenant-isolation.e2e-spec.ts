import { type Client } from '@modelcontextprotocol/sdk/client/index.js';

import { type AdapterApp, bootAdapterApp, ops, tenantA, tenantB } from './support/adapter-fixtures';
import { message } from './support/auth-fixtures';
import {
  assistantA,
  assistantB,
  B_MARK,
  B_UID_MESSAGES,
  mcpClient,
  request,
  toolText,
  vapiBody,
} from './support/tenant-isolation-fixtures';

type Key = { key: string };
const bearer = (k: Key) => ({ authorization: `Bearer ${k.key}` });
const QUERY = 'espresso machine leaking water grinder refund order';

/**
 * An auditor's walk over every route and adapter (listed from the controllers) with two
 * location-bound keys: tenant A (loc_a) tries to read, write and delete tenant B's data
 * (loc_b, every text marked B-SECRET), and never can. Routes that hold no tenant data are
 * named at the end with why.
 */
describe('tenant isolation: a location-bound key against another tenant, on every route (e2e)', () => {
  let a: AdapterApp;
  let mcpA: Client;

  const call = (method: string, path: string, headers: object, body?: unknown) =>
    request(`${a.t.url}${path}`, method, headers, body);
  const post = (path: string, key: Key, body: unknown) => call('POST', path, bearer(key), body);
  /** What B can see of its own history about `query` (the owner's view, for "nothing moved"). */
  const asOwner = async (contact: string) =>
    (await post('/search', tenantB, { query: QUERY, contact_uid: contact })).text;

  beforeAll(async () => {
    a = await bootAdapterApp({
      VAPI_SECRETS: [assistantA.line, assistantB.line].join(','),
      // No deadline test here: a missed deadline's empty answer would "leak nothing" vacuously.
      CONTEXT_TIMEOUT_MS: '5000',
    });
    expect((await post('/ingest/conversations', ops, B_UID_MESSAGES)).status).toBe(200);
    mcpA = await mcpClient(a.t.url, tenantA.key);
  });
  afterAll(async () => {
    await mcpA?.close();
    await a?.t.close();
  });

  describe('reads', () => {
    // B's CRM contact, a contact no CRM knows (only the store's filter holds), and no contact.
    const WHO = [{ contact_uid: 'ctc_b1' }, { contact_uid: 'ctc_ghost' }, {}];

    it("/context, /context/prompt, explain, /search and the vector store never return B's history", async () => {
      expect(await asOwner('ctc_b1')).toContain(B_MARK); // the data is there for its owner
      // And A's reads do read: its own contact's history comes back whole.
      const own = (
        await post('/context', tenantA, { transcript: QUERY, contact_uid: 'ctc_a1' })
      ).json();
      expect(own).toMatchObject({
        meta: { partial: false },
        contact: { live_fields_available: true },
      });
      expect(JSON.stringify(own.historical_excerpts)).toContain('gasket kit');
      for (const who of WHO) {
        const probes = [
          post('/context', tenantA, { transcript: QUERY, ...who }),
          post('/context', tenantA, { transcript: QUERY, explain: true, ...who }),
          post('/context/prompt', tenantA, { transcript: QUERY, ...who }),
          post('/search', tenantA, { query: QUERY, ...who }),
          ...(who.contact_uid
            ? [post(`/v1/vector_stores/${who.contact_uid}/search`, tenantA, { query: QUERY })]
            : []),
        ];
        for (const res of await Promise.all(probes)) {
          expect({ who, status: res.status, leaked: res.text.includes(B_MARK) }).toEqual({
            who,
            status: 200,
            leaked: false,
          });
        }
      }
      const b1 = (
        await post('/context', tenantA, { transcript: QUERY, contact_uid: 'ctc_b1' })
      ).json();
      expect(b1.contact).toEqual({ live_fields_available: false, error: 404 });
    });

    it('answers 403 location_forbidden wherever A names location B', async () => {
      const probes = [
        post('/context', tenantA, { transcript: QUERY, location_uid: 'loc_b' }),
        post('/context/prompt', tenantA, { transcript: QUERY, location_uid: 'loc_b' }),
        post('/search', tenantA, { query: QUERY, location_uid: 'loc_b' }),
        post('/v1/vector_stores/ctc_b1/search', tenantA, {
          query: QUERY,
          filters: { type: 'eq', key: 'location_uid', value: 'loc_b' },
        }),
      ];
      for (const res of await Promise.all(probes)) {
        expect({ status: res.status, error: res.json().error }).toEqual({
          status: 403,
          error: 'location_forbidden',
        });
        expect(res.text).not.toContain(B_MARK);
      }
    });

    it("MCP tools (context_fetch, context_explain, search_history) never return B's history", async () => {
      const calls = [
        ...['ctc_b1', 'ctc_ghost', undefined].flatMap((contact_uid) => [
          { name: 'context_fetch', arguments: { transcript: QUERY, contact_uid } },
          { name: 'context_explain', arguments: { transcript: QUERY, contact_uid } },
          { name: 'search_history', arguments: { query: QUERY, contact_uid } },
        ]),
        { name: 'context_fetch', arguments: { transcript: QUERY, location_uid: 'loc_b' } },
        { name: 'search_history', arguments: { query: QUERY, location_uid: 'loc_b' } },
      ];
      const own = await mcpA.callTool({
        name: 'context_fetch',
        arguments: { transcript: QUERY, contact_uid: 'ctc_a1' },
      });
      expect(toolText(own)).toContain('gasket kit');
      for (const tool of calls) {
        const text = toolText(await mcpA.callTool(tool));
        expect({ tool: tool.name, args: tool.arguments, leaked: text.includes(B_MARK) }).toEqual({
          tool: tool.name,
          args: tool.arguments,
          leaked: false,
        });
      }
    });

    it("Vapi: A's assistant never reads B, by spoofed caller id or without one", async () => {
      const vapi = (body: unknown, headers: object) =>
        call('POST', '/adapters/vapi/knowledge-base', headers, body);
      const asA = { 'x-vapi-secret': assistantA.key };
      expect((await vapi(vapiBody(QUERY, { number: 'ctc_a1' }), asA)).text).toContain('gasket kit');
      for (const customer of [{ number: 'ctc_b1' }, { externalId: 'ctc_ghost' }, undefined]) {
        const res = await vapi(vapiBody(QUERY, customer), asA);
        expect({ customer, status: res.status, leaked: res.text.includes(B_MARK) }).toEqual({
          customer,
          status: 200,
          leaked: false,
        });
      }
      // B's own assistant reads B's caller, but no caller identity means no history at all.
      const owner = await vapi(vapiBody(QUERY, { number: 'ctc_b1' }), {
        'x-vapi-secret': assistantB.key,
      });
      expect(owner.text).toContain(B_MARK);
      const anonymous = await vapi(vapiBody(QUERY), { 'x-vapi-secret': assistantB.key });
      expect(anonymous.json()).toEqual({ documents: [] });
    });

    it("the inspector's contact list and /metrics name none of B's contacts or text", async () => {
      const contacts = await call('GET', '/contacts', bearer(tenantA));
      expect(contacts.status).toBe(200);
      expect(contacts.text).toContain('ctc_a1');
      expect(contacts.text).not.toMatch(/ctc_b1|loc_b/);
      const metrics = await call('GET', '/metrics', bearer(tenantA));
      expect(metrics.status).toBe(200);
      expect(metrics.text).not.toMatch(/ctc_b1|ctc_ghost|B-SECRET/);
    });
  });

  describe('writes', () => {
    it('refuses records for location B or for no location, and the shared KB, storing nothing', async () => {
      const planted = message('ctc_b1', 'loc_b', 30, 'A-PLANT written into location B');
      const unlocated = { ...planted, location_uid: undefined };
      for (const body of [[planted], [unlocated]]) {
        const res = await post('/ingest/conversations', tenantA, body);
        expect({ status: res.status, error: res.json().error }).toEqual({
          status: 403,
          error: 'location_forbidden',
        });
      }
      const kb = await post('/ingest/kb', tenantA, [
        { topic_id: 't1', title: 'A-PLANT', summary: 'A-PLANT', text: 'A-PLANT' },
      ]);
      expect(kb.status).toBe(403);
      expect(await asOwner('ctc_b1')).not.toContain('A-PLANT');
    });

    it("stores B's message_uid sent under location A as A's own message: B's row never moves or changes", async () => {
      // Ids are per location (issue 36): old code answered 409 message_owned_elsewhere, which
      // blocked A's batch and told A the uid exists in another tenant.
      const [owned] = B_UID_MESSAGES;
      const own = message('ctc_a1', 'loc_a', 40, 'A-OWN espresso grinder refund question.');
      const res = await post('/ingest/conversations', tenantA, [
        own,
        { ...owned, location_uid: 'loc_a', text: 'A-PLANT espresso grinder refund order' },
      ]);
      expect({ status: res.status, failed: res.json().failed }).toEqual({
        status: 200,
        failed: [],
      });
      expect(res.text).not.toContain(B_MARK);
      const readA = (await post('/search', tenantA, { query: QUERY })).text;
      expect(readA).toMatch(/A-PLANT/);
      expect(readA).not.toContain(B_MARK);
      const owner = await asOwner('ctc_b1');
      expect(owner).toContain('order 4471');
      expect(owner).not.toContain('A-PLANT');
      // The rightful tenant re-sends its own message: idempotent, and A's row stays A's.
      const again = await post('/ingest/conversations', tenantB, [owned]);
      expect(again.status).toBe(200);
      expect(again.json()).toMatchObject({ failed: [] });
      expect((await post('/search', tenantA, { query: QUERY })).text).toContain('A-PLANT');
      expect(await asOwner('ctc_b1')).not.toContain('A-PLANT');
    });

    it("keeps the tenants apart when A reuses B's contact and conversation ids under location A", async () => {
      const reused = message('ctc_b1', 'loc_a', 50, 'A-REUSE espresso grinder refund order note.');
      expect((await post('/ingest/conversations', tenantA, [reused])).status).toBe(200);
      const readA = await post('/search', tenantA, { query: QUERY, contact_uid: 'ctc_b1' });
      expect(readA.text).toContain('A-REUSE');
      expect(readA.text).not.toContain(B_MARK);
      const owner = await asOwner('ctc_b1');
      expect(owner).toContain(B_MARK);
      expect(owner).not.toContain('A-REUSE');
    });

    it("stores B's uid-less message re-sent word for word under location A as A's copy; A's forget of it leaves B's", async () => {
      // Without a uid a message is known by its turn (conversation, time, sender, text), and
      // its id is that turn's hash: both rows now share it. Old code: 409.
      const bTurn = message(
        'ctc_b1',
        'loc_b',
        0,
        'B-SECRET my espresso machine leaks water everywhere.',
      );
      const res = await post('/ingest/conversations', tenantA, [
        { ...bTurn, location_uid: 'loc_a' },
      ]);
      expect({ status: res.status, failed: res.json().failed }).toEqual({
        status: 200,
        failed: [],
      });
      // A sent that text itself: its copy is A's; B's row did not move.
      const copy = await post('/search', tenantA, { query: QUERY, contact_uid: 'ctc_b1' });
      expect(copy.text).toContain('leaks water everywhere');
      expect(await asOwner('ctc_b1')).toContain('leaks water everywhere');
      // A forgets its part of the contact: the row under the same id in loc_b stays.
      const forget = await call('DELETE', '/contacts/ctc_b1/history', bearer(tenantA));
      expect(forget.status).toBe(200);
      const after = await post('/search', tenantA, { query: QUERY, contact_uid: 'ctc_b1' });
      expect(after.text).not.toContain(B_MARK);
      expect(await asOwner('ctc_b1')).toContain('leaks water everywhere');
    });
  });

  describe('deletes', () => {
    it("DELETE /contacts/{id}/history as A forgets none of B's history", async () => {
      const res = await call('DELETE', '/contacts/ctc_b1/history', bearer(tenantA));
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ location_uids: ['loc_a'] });
      expect(await asOwner('ctc_b1')).toContain('order 4471');
      expect(await asOwner('ctc_b1')).toContain('leaks water everywhere');
      const ghost = await call('DELETE', '/contacts/ctc_ghost/history', bearer(tenantA));
      expect(ghost.status).toBe(200);
      expect(await asOwner('ctc_ghost')).toContain(B_MARK);
    });
  });

  describe('scores', () => {
    it("explain's bm25_score is the same whether or not B's data holds the word (no side channel)", async () => {
      // Two windows of A's, alike but for one word; only "tangerine" also fills B's history,
      // under the same contact id (a phone number two tenants share) and under others.
      const probe = (word: string) => ({
        ...message('ctc_probe', 'loc_a', 0, `Warranty claim for the ${word} kettle lid.`),
        conversation_uid: `conv_probe_${word}`,
      });
      expect(
        (await post('/ingest/conversations', tenantA, [probe('marigold'), probe('tangerine')]))
          .status,
      ).toBe(200);
      const bWords = Array.from({ length: 12 }, (_, i) =>
        message(
          i % 2 ? 'ctc_probe' : `ctc_b_fruit${i}`,
          'loc_b',
          i,
          `${B_MARK} tangerine crate ${i}.`,
        ),
      );
      expect((await post('/ingest/conversations', tenantB, bWords)).status).toBe(200);
      const bm25Of = async (word: string, who: object) => {
        const res = await post('/context', tenantA, {
          transcript: `${word} kettle`,
          explain: true,
          ...who,
        });
        const explain = res.json().explain as {
          candidates: Array<{ content: string; bm25_score: number }>;
        };
        expect(res.text).not.toContain(B_MARK);
        return explain.candidates.find((c) => c.content.includes(word))?.bm25_score;
      };
      for (const who of [{}, { contact_uid: 'ctc_probe' }]) {
        const [own, shared] = [await bm25Of('marigold', who), await bm25Of('tangerine', who)];
        expect({ who, own: typeof own, equal: own === shared }).toEqual({
          who,
          own: 'number',
          equal: true,
        });
      }
    });
  });

  // Routes holding no tenant data, so nothing to isolate: POST /redact and POST /relevance
  // (they work on the caller's own text), POST /chat and POST /ingest/kb's KB (the shared R42
  // knowledge base: bound keys cannot write it), /health/*, /docs, /widget/*, /inspect*
  // (static code), POST /webhooks/podium (Podium-signed, no API key).
});
