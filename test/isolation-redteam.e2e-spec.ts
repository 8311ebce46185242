import { type Client } from '@modelcontextprotocol/sdk/client/index.js';

import { type AdapterApp, bootAdapterApp, ops, tenantA, tenantB } from './support/adapter-fixtures';
import { refusedUpgrade, StreamClient } from './support/call-stream';
import { comparable, readViews, RT_QUERY, tenantATurns, tenantBTurns } from './support/redteam';
import {
  assistantA,
  assistantB,
  B_MARK,
  B_UID_MESSAGES,
  mcpClient,
  request,
  vapiBody,
} from './support/tenant-isolation-fixtures';

type Key = { key: string };
const bearer = (k: Key) => ({ authorization: `Bearer ${k.key}` });

/**
 * The reviewer's red team, as a differential: whatever tenant B stores, tenant A (a key bound
 * to loc_a) must see exactly what it would see if B stored nothing. Each probe asks about two
 * contacts that differ only by B's data (B's contact against one nobody has; a contact id
 * both tenants use against one only A uses) and the answers must be equal, field by field,
 * once time and row ids are set aside: no text, count, score, rank, status or error tells A
 * that B's data exists.
 */
describe.each(['true', 'false'])(
  'isolation red team: nothing of tenant B changes what tenant A sees (e2e, DATABASE_ROW_SECURITY=%s)',
  (rowSecurity) => {
    let a: AdapterApp;
    let mcpA: Client;
    const call = (method: string, path: string, key: Key, body?: unknown) =>
      request(`${a.t.url}${path}`, method, bearer(key), body);

    beforeAll(async () => {
      // Off too: the service's own filters must hold without the database's policies.
      a = await bootAdapterApp({
        CONTEXT_TIMEOUT_MS: '5000',
        DATABASE_ROW_SECURITY: rowSecurity,
        VAPI_SECRETS: [assistantA.line, assistantB.line].join(','),
      });
      const seeded = [
        ...B_UID_MESSAGES,
        // ctc_twin: both tenants; ctc_solo: A's same turns, and nothing of B's.
        ...tenantATurns('ctc_twin'),
        ...tenantATurns('ctc_solo'),
        ...tenantBTurns('ctc_twin', B_MARK),
      ];
      expect((await call('POST', '/ingest/conversations', ops, seeded)).status).toBe(200);
      mcpA = await mcpClient(a.t.url, tenantA.key);
    }, 120_000);
    afterAll(async () => {
      await mcpA?.close();
      await a?.t.close();
    });

    /** A's views of `x` and `y`, made comparable; also asserts no B text in any of them. */
    const diff = async (x: string, y: string) => {
      // A's Vapi assistant, its caller id spoofed to the contact, is one more read route.
      const vapi = async (contact: string) =>
        request(
          `${a.t.url}/adapters/vapi/knowledge-base`,
          'POST',
          { 'x-vapi-secret': assistantA.key },
          vapiBody(RT_QUERY, { number: contact }),
        );
      const [vx, vy] = [
        { ...(await readViews(a.t.url, tenantA, mcpA, x)), vapi: await vapi(x) },
        { ...(await readViews(a.t.url, tenantA, mcpA, y)), vapi: await vapi(y) },
      ];
      const leaked = Object.entries({ ...vx }).filter(([, v]) => v.text.includes(B_MARK));
      expect(leaked.map(([route]) => route)).toEqual([]);
      const view = (v: typeof vx) =>
        Object.fromEntries(
          Object.entries(v).map(([route, r]) => [route, [r.status, comparable(r.text, [x, y])]]),
        );
      return [view(vx), view(vy)];
    };

    it("B's contact reads exactly like a contact nobody has, on every read route", async () => {
      for (const contact of ['ctc_b1', 'ctc_ghost']) {
        const [theirs, nobodys] = await diff(contact, 'ctc_nobody_at_all');
        expect(theirs).toEqual(nobodys);
      }
    });

    it('a contact id both tenants use reads, for A, exactly like one only A uses', async () => {
      // The owner's view: B's history under the shared id is there to be leaked.
      const owner = await call('POST', '/search', tenantB, {
        query: RT_QUERY,
        contact_uid: 'ctc_twin',
      });
      expect(owner.text).toContain(B_MARK);
      const [shared, own] = await diff('ctc_twin', 'ctc_solo');
      expect(own.context[0]).toBe(200);
      expect(JSON.stringify(own.context)).toContain('A-OWN');
      expect(shared).toEqual(own);
    });

    it("A's forget of a shared contact id answers as for its own contact: no count of B's conversations", async () => {
      const forget = async (contact: string) => {
        const res = await call('POST', '/contacts/forget', tenantA, { contact_uid: contact });
        expect(res.status).toBe(200);
        return comparable(res.text, [contact]);
      };
      const [shared, own] = [await forget('ctc_twin'), await forget('ctc_solo')];
      expect(shared).toEqual(own);
      expect(own).toMatchObject({ location_uids: ['loc_a'], conversations: 1 });
      // And B's history under the id is whole.
      const owner = await call('POST', '/search', tenantB, {
        query: RT_QUERY,
        contact_uid: 'ctc_twin',
      });
      expect(JSON.stringify(owner.json().hits).split(B_MARK).length - 1).toBeGreaterThanOrEqual(3);
    });

    it("B's deletion receipt is, for A, a receipt that does not exist; A reads its own", async () => {
      const bForget = await call('POST', '/contacts/forget', tenantB, {
        contact_uid: 'ctc_b_gone',
      });
      const opsForget = await call('POST', '/contacts/forget', ops, {
        contact_uid: 'ctc_ops_gone',
      });
      const aForget = await call('POST', '/contacts/forget', tenantA, {
        contact_uid: 'ctc_a_gone',
      });
      const receipt = (key: Key, id: unknown) =>
        call('GET', `/contacts/forget/receipts/${String(id)}`, key);
      const absent = comparable(
        (await receipt(tenantA, '00000000-0000-4000-8000-000000000000')).text,
        [],
      );
      for (const id of [bForget.json().receipt_id, opsForget.json().receipt_id]) {
        const res = await receipt(tenantA, id);
        expect(res.status).toBe(404);
        expect(comparable(res.text, [])).toEqual(absent);
        expect(res.text).not.toContain(String(id));
      }
      const own = await receipt(tenantA, aForget.json().receipt_id);
      expect(own.status).toBe(200);
      expect(own.json()).toMatchObject({ location_uids: ['loc_a'] });
    });

    it("A's ingest answers the same for B's message uid as for a fresh one (no existence oracle)", async () => {
      const [bMessage] = B_UID_MESSAGES;
      const send = (uid: string) =>
        call('POST', '/ingest/conversations', tenantA, [
          {
            ...bMessage,
            message_uid: uid,
            location_uid: 'loc_a',
            contact_uid: 'ctc_a_probe',
            text: 'A-OWN note',
          },
        ]);
      const [taken, fresh] = [await send(bMessage.message_uid), await send('msg_never_used_rt')];
      expect(taken.status).toBe(200);
      expect(comparable(taken.text, [])).toEqual(comparable(fresh.text, []));
    });

    it('the OpenAI filters admit no widening: or, ne, in and nested forms are 400, never B’s data', async () => {
      const eq = (value: unknown) => ({ type: 'eq', key: 'location_uid', value });
      const hostile = [
        { type: 'or', filters: [eq('loc_a'), eq('loc_b')] },
        { type: 'ne', key: 'location_uid', value: 'loc_a' },
        { type: 'in', key: 'location_uid', value: ['loc_b'] },
        { type: 'and', filters: [{ type: 'or', filters: [eq('loc_b')] }] },
        { type: 'and', filters: [] },
        eq(['loc_b']),
        eq('loc_a|loc_b'),
        eq('*'),
      ];
      for (const filters of hostile) {
        const res = await call('POST', '/v1/vector_stores/ctc_b1/search', tenantA, {
          query: RT_QUERY,
          filters,
        });
        expect({ filters, status: res.status, leaked: res.text.includes(B_MARK) }).toEqual({
          filters,
          status: 400,
          leaked: false,
        });
      }
    });

    it("B's forget of a shared contact id alters nothing of A's live call on it", async () => {
      const contact = 'ctc_twin_call';
      await call('POST', '/ingest/conversations', tenantB, tenantBTurns(contact, B_MARK));
      const turn = (transcript: string) =>
        call('POST', '/context', tenantA, {
          transcript,
          contact_uid: contact,
          call_id: 'call_rt_twin',
        });
      await turn('my locker code is 4417');
      const forget = await call('POST', '/contacts/forget', tenantB, { contact_uid: contact });
      expect(forget.json()).toMatchObject({ location_uids: ['loc_b'] });
      const next = await turn('which locker code did I say');
      expect(JSON.stringify(next.json().call_memory)).toContain('4417');
      expect(next.text).not.toContain(B_MARK);
      const ended = await call('POST', '/calls/end', tenantA, {
        call_id: 'call_rt_twin',
        contact_uid: contact,
      });
      expect(ended.json()).toEqual({ ended: true, joined_turns: 2 });
    });

    it("A ending B's live call (its call id and contact) answers as for a call that never was, and B's call goes on", async () => {
      const bTurn = (transcript: string) =>
        call('POST', '/context', tenantB, {
          transcript,
          contact_uid: 'ctc_b1',
          call_id: 'call_rt_live',
        });
      await bTurn(`${B_MARK} my alarm code is 6620`);
      const end = async (callId: string) =>
        comparable(
          (await call('POST', '/calls/end', tenantA, { call_id: callId, contact_uid: 'ctc_b1' }))
            .text,
          [],
        );
      expect(await end('call_rt_live')).toEqual(await end('call_rt_never'));
      expect(JSON.stringify((await bTurn('which alarm code')).json().call_memory)).toContain(
        '6620',
      );
    });

    it("A's forget of a contact id never keeps B from storing its own messages of it, older ones included", async () => {
      const contact = 'ctc_twin_late';
      const forget = await call('POST', '/contacts/forget', tenantA, { contact_uid: contact });
      expect(forget.status).toBe(200);
      // B's export arrives after A's forget, dated before it: B's own, so stored and read.
      const late = tenantBTurns(contact, B_MARK);
      expect((await call('POST', '/ingest/conversations', tenantB, late)).json()).toMatchObject({
        inserted: 3, // windows: one per conversation
        failed: [],
      });
      const owner = await call('POST', '/search', tenantB, {
        query: RT_QUERY,
        contact_uid: contact,
      });
      expect(owner.text).toContain(B_MARK);
    });

    describe('the call stream (WebSocket)', () => {
      const ws = (callId: string, query: string) =>
        `${a.t.url.replace('http', 'ws')}/calls/${callId}/stream?${query}`;

      it("A's stream on B's call id and contact neither reads B's call nor displaces B's stream", async () => {
        const bStream = new StreamClient(ws('call_rt_b', 'contact_uid=ctc_b1'), bearer(tenantB));
        await bStream.opened;
        await bStream.next(['ready']);
        bStream.send({ type: 'final', transcript: `${B_MARK} my gate code is 7731`, seq: 1 });
        await bStream.next(['bundle', 'confirmed']);

        const aStream = new StreamClient(ws('call_rt_b', 'contact_uid=ctc_b1'), bearer(tenantA));
        await aStream.opened;
        await aStream.next(['ready']);
        aStream.send({ type: 'final', transcript: 'what gate code did I give you', seq: 1 });
        const answer = await aStream.next(['bundle', 'confirmed', 'error']);
        expect(JSON.stringify(answer)).not.toMatch(/7731|B-SECRET/);
        // A frame naming B's contact or location is refused, not obeyed.
        aStream.send({
          type: 'final',
          transcript: RT_QUERY,
          contact_uid: 'ctc_b1',
          location_uid: 'loc_b',
        });
        const refused = await aStream.next(['error', 'bundle', 'confirmed']);
        expect(refused.type).toBe('error');
        expect(JSON.stringify(aStream.received)).not.toContain(B_MARK);

        // B's stream is still B's: its next turn remembers the code.
        bStream.send({ type: 'final', transcript: 'which gate code', seq: 2 });
        const bAnswer = await bStream.next(['bundle', 'confirmed']);
        expect(JSON.stringify(bAnswer)).toContain('7731');
        expect(bStream.socket.readyState).toBe(WebSocket.OPEN);
        aStream.close();
        bStream.close();
      });

      it('an upgrade naming location B is 403 before any frame', async () => {
        const res = await refusedUpgrade(
          `${a.t.url}/calls/call_rt_x/stream?contact_uid=ctc_b1&location_uid=loc_b`,
          bearer(tenantA),
        );
        expect([res.status, res.body.error]).toEqual([403, 'location_forbidden']);
      });
    });
  },
);
