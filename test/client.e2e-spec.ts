import { llm } from '@livekit/agents';

import {
  addBridgeContext,
  BridgeAbortedError,
  BridgeError,
  BridgeTimeoutError,
  type ChatEvent,
  ContextBridgeClient,
  unwrap,
} from '../libs/client/src';
import { type AdapterApp, bootAdapterApp, ops, tenantA } from './support/adapter-fixtures';

describe('@context-bridge/client and its LiveKit hook (e2e, real app)', () => {
  let a: AdapterApp;
  let client: ContextBridgeClient;

  beforeAll(async () => {
    a = await bootAdapterApp({ SEED_DEMO_DATA: 'true' });
    client = new ContextBridgeClient({ baseUrl: a.t.url, apiKey: tenantA.key, deadlineMs: 2000 });
  });
  afterAll(() => a.t.close());
  afterEach(() => {
    a.embedFault.mode = a.liveFault.mode = 'off';
  });

  it('fetchContext and prompt return the typed bundle and prompt', async () => {
    const bundle = await client.fetchContext({
      transcript: 'espresso leak',
      contact_uid: 'ctc_a1',
    });
    expect(bundle.contact).toMatchObject({ live_fields_available: true, location_uid: 'loc_a' });
    expect(bundle.historical_excerpts.length).toBeGreaterThan(0);
    // The server's deadline was set inside the client's (2000 ms minus the network margin).
    expect(bundle.meta.timeout_ms).toBe(1950);
    const prompt = await client.prompt({ transcript: 'espresso leak', contact_uid: 'ctc_a1' });
    expect(prompt.user).toContain('espresso');
    expect(prompt.token_count).toBeGreaterThan(0);
  });

  it('chat iterates the SSE events through done', async () => {
    const events: ChatEvent[] = [];
    for await (const event of new ContextBridgeClient({ baseUrl: a.t.url }).chat({
      query: 'How should I give feedback to a colleague?',
      userId: 'demo-employee',
    })) {
      events.push(event);
    }
    expect(events.at(-1)).toEqual({ type: 'done' });
    expect(events.some((e) => e.type === 'chunk' || e.type === 'out_of_scope')).toBe(true);
  });

  it('raises typed errors: server codes, deadline, abort', async () => {
    await expect(
      client.fetchContext({ transcript: 'espresso', location_uid: 'loc_b' }),
    ).rejects.toMatchObject({ name: 'BridgeError', code: 'location_forbidden', status: 403 });
    const anonymous = new ContextBridgeClient({ baseUrl: a.t.url });
    const error = await anonymous.fetchContext({ transcript: 'x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeError);
    expect(error).toMatchObject({ code: 'missing_api_key', status: 401 });
    expect((error as BridgeError).requestId).toMatch(/^[0-9a-f-]{36}$/);

    a.embedFault.mode = a.liveFault.mode = 'hang';
    await expect(
      client.fetchContext({ transcript: 'late', timeout_ms: 2000 }, { deadlineMs: 100 }),
    ).rejects.toBeInstanceOf(BridgeTimeoutError);
    const abort = new AbortController();
    const pending = client.fetchContext(
      { transcript: 'aborted', timeout_ms: 2000 },
      { signal: abort.signal },
    );
    abort.abort();
    await expect(pending).rejects.toBeInstanceOf(BridgeAbortedError);
  });

  it('`api` reaches the other routes, typed from the contract, errors as BridgeErrors', async () => {
    const { api } = new ContextBridgeClient({ baseUrl: a.t.url, apiKey: ops.key });
    const search = await unwrap(
      api.POST('/search', { body: { query: 'espresso leak', contact_uid: 'ctc_a1', top_k: 2 } }),
    );
    expect(search.hits.length).toBeGreaterThan(0);
    expect(search.hits[0]).toMatchObject({ contact_uid: 'ctc_a1' });
    // A path parameter, then the receipt the forget answered with (a GET with one too).
    const forgot = await unwrap(
      api.DELETE('/contacts/{contact_uid}/history', {
        params: { path: { contact_uid: 'ctc_sdk_nobody' } },
      }),
    );
    const receipt = await unwrap(
      api.GET('/contacts/forget/receipts/{receipt_id}', {
        params: { path: { receipt_id: forgot.receipt_id } },
      }),
    );
    expect(receipt).toMatchObject({ receipt_id: forgot.receipt_id });
    const refused = await unwrap(
      api.POST('/search', { body: { query: 'x', contact_uid: 'ctc_b1', location_uid: 'loc_b' } }),
    ).catch((e: unknown) => e);
    const bound = new ContextBridgeClient({ baseUrl: a.t.url, apiKey: tenantA.key }).api;
    const forbidden = await unwrap(
      bound.POST('/search', { body: { query: 'x', location_uid: 'loc_b' } }),
    ).catch((e: unknown) => e);
    expect(refused).not.toBeInstanceOf(BridgeError); // ops is unbound: allowed
    expect(forbidden).toBeInstanceOf(BridgeError);
    expect(forbidden).toMatchObject({ code: 'location_forbidden', status: 403 });
    expect((forbidden as BridgeError).requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  describe('LiveKit onUserTurnCompleted helper', () => {
    const userTurn = (text: string) => llm.ChatMessage.create({ role: 'user', content: text });

    it('adds the bundle to the turn’s real ChatContext', async () => {
      const turnCtx = new llm.ChatContext();
      turnCtx.addMessage({ role: 'system', content: 'You are a support agent.' });
      const added = await addBridgeContext(turnCtx, userTurn('my espresso machine leaks'), {
        client: new ContextBridgeClient({ baseUrl: a.t.url, apiKey: ops.key }),
        contactUid: () => 'ctc_a1',
        // A loaded CI box can pass the 400 ms default on a cold first call: this test is
        // about what gets added, the deadline tests follow.
        deadlineMs: 5_000,
      });
      expect(added).toBe(true);
      const last = turnCtx.items.at(-1) as llm.ChatMessage;
      expect(last.role).toBe('assistant');
      expect(last.textContent).toContain('Live CRM record');
      expect(last.textContent).toContain('espresso');
      expect(turnCtx.items).toHaveLength(2);
    });

    it('sends the last 8,000 characters of a long turn without splitting an emoji', async () => {
      // The cut fell on the emoji's second half: the server refuses a lone surrogate (400).
      const long = `hi \u{1f600}${' order'.repeat(1333)}a`;
      expect(long.length).toBeGreaterThan(8000);
      const turnCtx = new llm.ChatContext();
      const failures: unknown[] = [];
      const added = await addBridgeContext(turnCtx, userTurn(long), {
        client: new ContextBridgeClient({ baseUrl: a.t.url, apiKey: ops.key }),
        contactUid: 'ctc_a1',
        deadlineMs: 5_000,
        onError: (error) => failures.push(error),
      });
      expect(failures).toEqual([]);
      expect(added).toBe(true);
    });

    it('adds nothing when the bridge answers empty at its deadline', async () => {
      a.embedFault.mode = a.liveFault.mode = 'hang';
      const turnCtx = new llm.ChatContext();
      const added = await addBridgeContext(turnCtx, userTurn('is my order late?'), {
        client: new ContextBridgeClient({ baseUrl: a.t.url, apiKey: ops.key }),
        contactUid: 'ctc_a1',
        deadlineMs: 200,
      });
      expect(added).toBe(false);
      expect(turnCtx.items).toEqual([]);
    });

    it('adds nothing, and does not wait, when the answer arrives past the deadline', async () => {
      // A stalled network: no answer comes before the caller aborts (abortable, like fetch),
      // so a client that waited past its deadline hangs this test.
      const slowFetch: typeof fetch = (_input, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason as Error));
        });
      const turnCtx = new llm.ChatContext();
      const errors: unknown[] = [];
      const added = await addBridgeContext(turnCtx, userTurn('my espresso machine leaks'), {
        client: new ContextBridgeClient({ baseUrl: a.t.url, apiKey: ops.key, fetch: slowFetch }),
        contactUid: 'ctc_a1',
        deadlineMs: 100,
        onError: (e) => errors.push(e),
      });
      expect(added).toBe(false);
      expect(turnCtx.items).toEqual([]);
      expect(errors).toEqual([expect.any(BridgeTimeoutError)]);
    });
  });
});
