import { OFFLOAD_MIN_CHARS, Redactor } from '@app/redaction';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult } from '@modelcontextprotocol/sdk/types.js';

import { RedactionPool } from '../libs/redaction/src/worker/redaction-pool';
import { type ContextBundle } from '../src/context/context.dto';
import { type SearchResponseDto } from '../src/retrieval/search.dto';
import {
  ADAPTER_TIMEOUT_MS,
  type AdapterApp,
  bootAdapterApp,
  ops,
  tenantA,
  tenantB,
} from './support/adapter-fixtures';

/** The official MCP client over Streamable HTTP, authenticated with one of our API keys. */
async function connect(url: string, key?: string): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: key ? { headers: { authorization: `Bearer ${key}` } } : {},
    }),
  );
  return client;
}

/** The tool's JSON payload (every tool answers one JSON text block). */
function payload<T>(result: unknown): T {
  const [first] = (result as CallToolResult).content;
  if (first?.type !== 'text') {
    throw new Error('expected a text block');
  }
  return JSON.parse(first.text) as T;
}

describe('MCP server at /mcp (e2e, official SDK client)', () => {
  let a: AdapterApp;
  let asA: Client;
  let asB: Client;
  let asOps: Client;

  beforeAll(async () => {
    // Demo data gives the knowledge base kb_search reads; the two tenants come from fixtures.
    a = await bootAdapterApp({ SEED_DEMO_DATA: 'true' });
    [asA, asB, asOps] = await Promise.all(
      [tenantA, tenantB, ops].map((k) => connect(a.t.url, k.key)),
    );
  });
  afterAll(async () => {
    await Promise.all([asA, asB, asOps].map((c) => c?.close()));
    await a.t.close();
  });
  afterEach(() => {
    a.embedFault.mode = a.liveFault.mode = 'off';
  });

  it('lists the five tools with JSON schemas', async () => {
    const { tools } = await asA.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      'context_explain',
      'context_fetch',
      'kb_search',
      'redact',
      'search_history',
    ]);
    const fetch = tools.find((t) => t.name === 'context_fetch');
    expect(fetch?.inputSchema).toMatchObject({
      type: 'object',
      required: ['transcript'],
      properties: {
        transcript: { type: 'string', maxLength: 8000 },
        contact_uid: { type: 'string', maxLength: 128 },
        timeout_ms: { type: 'integer', minimum: 50, maximum: 5000 },
      },
    });
  });

  it('context_fetch returns the bundle: live fields and redacted excerpts', async () => {
    const bundle = payload<ContextBundle>(
      await asA.callTool({
        name: 'context_fetch',
        // The most the tool allows: on a loaded box the default 800 ms may end it partial.
        arguments: {
          transcript: 'espresso machine leaking',
          contact_uid: 'ctc_a1',
          timeout_ms: 5000,
        },
      }),
    );
    expect(bundle.contact).toMatchObject({ live_fields_available: true, location_uid: 'loc_a' });
    expect(bundle.historical_excerpts.length).toBeGreaterThan(0);
    expect(JSON.stringify(bundle)).not.toContain('B-SECRET');
  });

  it('context_explain adds the scored pool, inside the caller’s locations only', async () => {
    const bundle = payload<ContextBundle>(
      await asA.callTool({
        name: 'context_explain',
        // The tool's largest deadline: the adapter app's 300 ms let a loaded box end the
        // retrieval with an empty pool, and this test is about what the pool holds.
        arguments: {
          transcript: 'espresso machine leaking water',
          pool_k: 20,
          final_k: 2,
          timeout_ms: 5000,
        },
      }),
    );
    const explain = bundle.explain!;
    expect(explain).toMatchObject({ reranker: 'fusion', pool_k: 20 });
    expect(explain.candidates.length).toBeGreaterThan(0);
    expect(explain.candidates.every((c) => c.components !== null && c.cosine >= -1)).toBe(true);
    expect(explain.candidates.filter((c) => c.outcome === 'kept').map((c) => c.id)).toEqual(
      bundle.historical_excerpts.map((e) => e.id),
    );
    // Tenant A's key: tenant B's windows are not even candidates.
    expect(JSON.stringify(bundle)).not.toContain('B-SECRET');
    const plain = payload<ContextBundle>(
      await asA.callTool({ name: 'context_fetch', arguments: { transcript: 'espresso machine' } }),
    );
    expect('explain' in plain).toBe(false);
  });

  it('context_fetch answers an empty partial bundle on time when the deadline runs out', async () => {
    // The dependencies never answer: only the deadline ends the call (else jest's timeout).
    a.embedFault.mode = a.liveFault.mode = 'hang';
    const result = await asA.callTool({
      name: 'context_fetch',
      arguments: { transcript: 'nobody asked the mcp tool this', contact_uid: 'ctc_a1' },
    });
    expect(result.isError).toBeFalsy();
    const bundle = payload<ContextBundle>(result);
    expect(bundle.historical_excerpts).toEqual([]);
    expect(bundle.meta).toMatchObject({ partial: true, timeout_ms: ADAPTER_TIMEOUT_MS });
  });

  it('search_history and redact answer like /search and /redact', async () => {
    const search = payload<SearchResponseDto>(
      await asOps.callTool({
        name: 'search_history',
        arguments: { query: 'espresso machine', contact_uid: 'ctc_a1', top_k: 2 },
      }),
    );
    expect(search.hits.length).toBeGreaterThan(0);
    expect(search.hits.every((h) => h.contact_uid === 'ctc_a1')).toBe(true);
    const redacted = payload<{ text: string }>(
      await asA.callTool({ name: 'redact', arguments: { text: 'call me at (555) 0100' } }),
    );
    expect(redacted.text).toBe('call me at [REDACTED:PHONE]');
  });

  it('redacts a large text on the worker pool, never on the event loop', async () => {
    const pooled = jest.spyOn(RedactionPool.prototype, 'redact');
    const inline = jest.spyOn(Redactor.prototype, 'redact');
    try {
      const text = `${'The boiler leaks every morning. '.repeat(300)}call me at (555) 0100`;
      expect(text.length).toBeGreaterThanOrEqual(OFFLOAD_MIN_CHARS);
      const redacted = payload<{ text: string }>(
        await asA.callTool({ name: 'redact', arguments: { text } }),
      );
      expect(redacted.text.endsWith('call me at [REDACTED:PHONE]')).toBe(true);
      expect(pooled).toHaveBeenCalledWith(text); // before: the tool redacted inline
      expect(inline.mock.calls.map(([t]) => t)).not.toContain(text);
    } finally {
      pooled.mockRestore();
      inline.mockRestore();
    }
  });

  it('kb_search retrieves knowledge-base passages without generating', async () => {
    const found = payload<{ hits: Array<{ title: string; text: string; score: number }> }>(
      await asA.callTool({
        name: 'kb_search',
        arguments: { query: 'how do I give good feedback to a colleague?' },
      }),
    );
    expect(found.hits.length).toBeGreaterThan(0);
    expect(found.hits.map((h) => h.title)).toContain('Giving feedback');
    expect(found.hits.every((h) => h.text.length > 0 && h.score > 0)).toBe(true);
  });

  it('kb_search boosts a known employee and refuses an unknown userId with /chat’s code', async () => {
    const query = 'how do I give good feedback to a colleague?';
    const known = payload<{ current_theme_id: string | null }>(
      await asA.callTool({ name: 'kb_search', arguments: { query, userId: 'demo-employee' } }),
    );
    expect(known.current_theme_id).not.toBeNull();
    const unknown = await asA.callTool({
      name: 'kb_search',
      arguments: { query, userId: 'someone-else' },
    });
    expect(unknown.isError).toBe(true);
    expect(payload(unknown)).toEqual({
      error: 'user_not_found',
      message: expect.stringMatching(/Omit userId to search without the current-week boost/),
    });
  });

  it('keeps a key bound to loc_a out of loc_b through every history tool', async () => {
    // Another location's contact looks exactly like an unknown one: nothing of it comes back.
    const foreign = await asA.callTool({
      name: 'context_fetch',
      arguments: { transcript: 'espresso', contact_uid: 'ctc_b1' },
    });
    expect(foreign.isError).toBeFalsy();
    expect(payload(foreign)).toMatchObject({
      contact: { error: 404, live_fields_available: false },
      historical_excerpts: [],
    });
    const named = await asA.callTool({
      name: 'search_history',
      arguments: { query: 'espresso', location_uid: 'loc_b' },
    });
    expect(payload(named)).toMatchObject({ error: 'location_forbidden' });
    // The CRM does not know ctc_ghost: only the store's location filter stands between.
    const ghost = await asA.callTool({
      name: 'search_history',
      arguments: { query: 'ghost espresso machine leaking water', contact_uid: 'ctc_ghost' },
    });
    expect(JSON.stringify(ghost)).not.toContain('B-SECRET');
    const owner = await asB.callTool({
      name: 'search_history',
      arguments: { query: 'ghost espresso machine leaking water', contact_uid: 'ctc_ghost' },
    });
    expect(JSON.stringify(owner)).toContain('B-SECRET');
  });

  it('reports invalid arguments as tool errors, not protocol failures', async () => {
    const results = await Promise.all([
      asA.callTool({ name: 'context_fetch', arguments: { transcript: '   ' } }),
      asA.callTool({ name: 'context_fetch', arguments: { transcript: 'x', timeout_ms: 5 } }),
      asA.callTool({ name: 'search_history', arguments: { query: 'x', contact_uid: 'a b' } }),
      asA.callTool({ name: 'redact', arguments: {} }),
    ]);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toMatch(/validation/i);
    }
  });

  it('refuses a client without a valid API key before any JSON-RPC (401)', async () => {
    await expect(connect(a.t.url)).rejects.toThrow(/401|missing_api_key/);
    await expect(connect(a.t.url, 'wrong-key')).rejects.toThrow(/401|invalid_api_key/);
    const get = await fetch(`${a.t.url}/mcp`, { headers: { accept: 'text/event-stream' } });
    expect(get.status).toBe(405); // stateless: no server stream, as the spec wants it said
  });
});
