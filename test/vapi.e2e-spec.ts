import { keyedHash } from '@app/common';
import { Logger } from '@nestjs/common';
import type { Vapi } from '@vapi-ai/server-sdk';

import { generateApiKey } from '../src/config/api-key-entries';
import { type AdapterApp, bootAdapterApp, tenantA, tenantB } from './support/adapter-fixtures';
import { postJson } from './support/app';

/** One Vapi secret per assistant, each bound to its tenant's location (VAPI_SECRETS). */
const assistantA = generateApiKey('assistant-a', ['loc_a']);
const assistantB = generateApiKey('assistant-b', ['loc_b']);
const URL_PATH = '/adapters/vapi/knowledge-base';
/** Vapi logs the documents: the contact document is named by the id's keyed hash. */
const TELEMETRY_HASH_KEY = 'vapi-e2e-telemetry-key-0123456789abcdef';
const contactDoc = (id: string) => `contact:h:${keyedHash(TELEMETRY_HASH_KEY, id)}`;

/** A knowledge-base-request as Vapi sends it, typed by Vapi's own SDK. */
function vapiRequest(
  userTurns: string[],
  who: { externalId?: string; number?: string; callNumber?: string } = {},
): Vapi.ServerMessage {
  const message: Vapi.ServerMessageKnowledgeBaseRequest = {
    type: 'knowledge-base-request',
    messages: [{ role: 'bot', message: 'Hello!', time: 1, endTime: 2, secondsFromStart: 0 }],
    messagesOpenAIFormatted: [
      { role: 'system', content: 'You are a helpful assistant.' },
      { role: 'assistant', content: 'Hello! How can I help?' },
      ...userTurns.map((content) => ({ role: 'user' as const, content })),
    ],
    call: {
      id: 'c0ffee00-0000-4000-8000-000000000001',
      orgId: 'org_1',
      createdAt: '2026-12-01T10:00:00.000Z',
      updatedAt: '2026-12-01T10:00:00.000Z',
      ...(who.callNumber ? { customer: { number: who.callNumber } } : {}),
    },
    ...(who.externalId || who.number
      ? { customer: { externalId: who.externalId, number: who.number } }
      : {}),
  };
  return { message };
}

type KbResponse = Vapi.ServerMessageResponseKnowledgeBaseRequest;

describe('POST /adapters/vapi/knowledge-base (e2e)', () => {
  let a: AdapterApp;
  const post = (body: unknown, headers: Record<string, string> = {}) =>
    postJson<KbResponse>(`${a.t.url}${URL_PATH}`, body, headers);
  const secret = { 'x-vapi-secret': assistantA.key };
  const secretB = { 'x-vapi-secret': assistantB.key };

  beforeAll(async () => {
    a = await bootAdapterApp({
      VAPI_SECRETS: [assistantA.line, assistantB.line].join(','),
      TELEMETRY_HASH_KEY,
      // Vapi's request carries no deadline, so the service default applies: 300 ms let a
      // loaded CI box end the first (cold) call empty. The hang test still ends on it.
      CONTEXT_TIMEOUT_MS: '3000',
    });
  });
  afterAll(() => a.t.close());
  afterEach(() => {
    a.embedFault.mode = a.liveFault.mode = 'off';
    jest.restoreAllMocks();
  });

  it('answers Vapi documents: the live contact first, then redacted excerpts', async () => {
    const res = await post(
      vapiRequest(['Hi.', 'My espresso machine leaks water.'], { externalId: 'ctc_a1' }),
      secret,
    );
    expect(res.status).toBe(200);
    const [contact, ...excerpts] = res.body.documents ?? [];
    expect(contact).toMatchObject({ similarity: 1, uuid: contactDoc('ctc_a1') });
    expect(contact.content).toContain('opt_out_sms: true');
    expect(contact.content).toContain('location_uid: loc_a');
    // Caller ID can be spoofed: the contact's phone and e-mail are never read to the caller.
    expect(contact.content).not.toMatch(/^(phone|email):|\+15550100/m);
    expect(excerpts.length).toBeGreaterThan(0);
    for (const doc of excerpts) {
      expect(doc.uuid).toMatch(/^[0-9a-f-]{36}$/);
      expect(typeof doc.similarity).toBe('number');
      expect(doc.content).toContain('espresso');
      expect(doc.content).not.toContain('B-SECRET');
    }
  });

  it('maps the contact from customer.number, then call.customer.number', async () => {
    // Contacts are keyed by what Vapi knows: an E.164 number works as a contact_uid too.
    for (const who of [{ number: 'ctc_a1' }, { callNumber: 'ctc_a1' }]) {
      const res = await post(vapiRequest(['espresso machine leaking'], who), secret);
      expect(res.body.documents?.[0]?.uuid).toBe(contactDoc('ctc_a1'));
    }
  });

  it('falls back to messages[].message when messagesOpenAIFormatted is empty', async () => {
    const body = vapiRequest([], { externalId: 'ctc_a1' });
    const message = body.message as Vapi.ServerMessageKnowledgeBaseRequest;
    message.messagesOpenAIFormatted = [];
    message.messages = [
      { role: 'bot', message: 'Hello!', time: 1, endTime: 2, secondsFromStart: 0 },
      {
        role: 'user',
        message: 'the espresso machine leaks',
        time: 3,
        endTime: 4,
        secondsFromStart: 2,
      },
    ];
    const res = await post(body, secret);
    expect((res.body.documents ?? []).length).toBeGreaterThan(1);
  });

  it('answers { documents: [] } on time when the deadline runs out', async () => {
    // The dependencies never answer: only the deadline ends the request (else jest's timeout).
    a.embedFault.mode = a.liveFault.mode = 'hang';
    const res = await post(
      vapiRequest(['a question nobody asked the vapi adapter'], { externalId: 'ctc_a1' }),
      secret,
    );
    expect(res).toMatchObject({ status: 200, body: { documents: [] } });
  });

  it('answers { documents: [] } when a dependency fails outright', async () => {
    a.embedFault.mode = a.liveFault.mode = 'reject';
    const res = await post(
      vapiRequest(['espresso failure path'], { externalId: 'ctc_a1' }),
      secret,
    );
    expect(res).toMatchObject({ status: 200, body: { documents: [] } });
  });

  it('answers 200 with no documents to a bad body, logging no customer text', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const bad: unknown[] = [
      { message: { type: 'status-update', messagesOpenAIFormatted: [] } },
      {
        message: {
          type: 'knowledge-base-request',
          messagesOpenAIFormatted: [{ role: 'user', content: 42 }],
        },
      },
      {
        message: {
          type: 'knowledge-base-request',
          customer: { externalId: 'CUSTOMER SECRET TEXT' },
          messagesOpenAIFormatted: [{ role: 'user', content: 'CUSTOMER SECRET TEXT' }],
        },
      },
      {
        message: {
          type: 'knowledge-base-request',
          messagesOpenAIFormatted: [{ role: 'assistant', content: 'no user turn' }],
        },
      },
      [1, 2, 3],
    ];
    for (const body of bad) {
      const res = await post(body, secret);
      expect(res).toMatchObject({ status: 200, body: { documents: [] } });
    }
    const lines = warn.mock.calls.map((call) => String(call[0]));
    expect(lines).toHaveLength(bad.length);
    expect(lines[0]).toMatch(/invalid_body: message\.type\(equals\)/);
    expect(lines[2]).toMatch(/message\.customer\.externalId/);
    expect(lines.join('\n')).not.toContain('CUSTOMER SECRET TEXT');
  });

  describe('tenant isolation', () => {
    it("scopes a secret to its assistant's locations: a spoofed caller id of another tenant reads nothing", async () => {
      const spoofed = await post(
        vapiRequest(['espresso machine leaks'], { number: 'ctc_b1' }),
        secret,
      );
      expect(spoofed).toMatchObject({ status: 200, body: { documents: [] } });
      // A contact no CRM knows: the store's location filter keeps B's rows from A's assistant.
      const ghost = await post(
        vapiRequest(['ghost espresso machine leaking water'], { externalId: 'ctc_ghost' }),
        secret,
      );
      expect(JSON.stringify(ghost.body)).not.toContain('B-SECRET');
      const owner = await post(
        vapiRequest(['ghost espresso machine leaking water'], { externalId: 'ctc_ghost' }),
        secretB,
      );
      expect(JSON.stringify(owner.body)).toContain('B-SECRET'); // the data is there for its owner
    });

    it('gives a call without a caller identity (caller ID withheld) no history at all', async () => {
      for (const headers of [secret, secretB, { authorization: `Bearer ${tenantB.key}` }]) {
        const res = await post(vapiRequest(['espresso machine leaking water everywhere']), headers);
        expect(res).toMatchObject({ status: 200, body: { documents: [] } });
      }
    });

    it("narrows a secret by a bound key sent with it: B's secret with A's key reads neither", async () => {
      const res = await post(
        vapiRequest(['ghost espresso machine leaking water'], { externalId: 'ctc_ghost' }),
        {
          ...secretB,
          authorization: `Bearer ${tenantA.key}`,
        },
      );
      expect(res).toMatchObject({ status: 200, body: { documents: [] } });
    });
  });

  describe('auth', () => {
    it('refuses a wrong X-Vapi-Secret and a missing credential with 401', async () => {
      const body = vapiRequest(['espresso'], { externalId: 'ctc_a1' });
      const wrong = await post(body, { 'x-vapi-secret': 'not-the-secret' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: 'invalid_vapi_secret' });
      const none = await post(body);
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({ error: 'missing_api_key' });
      const badKey = await post(body, { authorization: 'Bearer nope' });
      expect(badKey.body).toMatchObject({ error: 'invalid_api_key' });
    });

    it('accepts a Bearer API key, scoped to its locations', async () => {
      const own = await post(vapiRequest(['espresso machine leaks'], { externalId: 'ctc_a1' }), {
        authorization: `Bearer ${tenantA.key}`,
      });
      expect(own.body.documents?.[0]?.uuid).toBe(contactDoc('ctc_a1'));
      // B's contact through A's key: refused by ContextService, answered as no documents.
      const other = await post(vapiRequest(['espresso machine leaks'], { externalId: 'ctc_b1' }), {
        authorization: `Bearer ${tenantA.key}`,
      });
      expect(other).toMatchObject({ status: 200, body: { documents: [] } });
      // A contact the CRM does not know: the store's location filter keeps B's rows out.
      const ghost = await post(
        vapiRequest(['ghost espresso machine leaking water'], { externalId: 'ctc_ghost' }),
        {
          authorization: `Bearer ${tenantA.key}`,
        },
      );
      expect(JSON.stringify(ghost.body)).not.toContain('B-SECRET');
      const asB = await post(
        vapiRequest(['ghost espresso machine leaking water'], { externalId: 'ctc_ghost' }),
        {
          authorization: `Bearer ${tenantB.key}`,
        },
      );
      expect(JSON.stringify(asB.body)).toContain('B-SECRET'); // the data is there for its owner
    });
  });
});
